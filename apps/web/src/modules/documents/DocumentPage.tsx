import Alert from "@mui/material/Alert";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Grid from "@mui/material/Grid";
import LinearProgress from "@mui/material/LinearProgress";
import Stack from "@mui/material/Stack";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Typography from "@mui/material/Typography";
import { can, decide, errorMessage } from "@workmetrics/domain";
import type { OfferedAction } from "@workmetrics/domain/documents/machine";
import { Suspense, useMemo, useState } from "react";
import { useParams } from "react-router";
import { DataError, refusal } from "../../platform/data-access/errors.ts";
import type { Row } from "../../platform/data-access/provider.ts";
import { formatDate } from "../../platform/fields/format.ts";
import { useMember } from "../../platform/resource/access.ts";
import { useResourceDef } from "../../platform/resource/hooks.ts";
import { PageCrumbs, RecordMissing } from "../../platform/resource/PageParts.tsx";
import { resourcePaths, useDashboardBase } from "../../platform/resource/paths.ts";
import { UnsavedChanges } from "../../platform/resource/UnsavedChanges.tsx";
import { useViewer } from "../../platform/session/viewer.tsx";
import { RefusedPage } from "../../platform/ui/GatePage.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { ReceivedNote } from "./ActionInputsDialog.tsx";
import { ActionPrompt } from "./ActionPrompt.tsx";
import { type DocRow, useActions, useDocument, useDocumentLabels } from "./api.ts";
import { DocumentActionsBar } from "./DocumentActionsBar.tsx";
import { EmailDialog } from "./DocumentDialogs.tsx";
import { DocumentHeaderForm } from "./DocumentHeaderForm.tsx";
import {
  comparable,
  documentAccess,
  type FormState,
  LAID_OUT,
  lineExtras,
  stateFrom,
  writableHeader,
} from "./documentForm.ts";
import { FilesPanel } from "./FilesPanel.tsx";
import { FlowPanel } from "./FlowPanel.tsx";
import { HistoryPanel } from "./HistoryPanel.tsx";
import { takesServices } from "./items.ts";
import { LinesGrid } from "./LinesGrid.tsx";
import { liveTotals } from "./lines.ts";
import { PaymentsPanel } from "./PaymentsPanel.tsx";
import { DocumentLabels } from "./RecordField.tsx";
import { StatusChip } from "./StatusChip.tsx";
import { shownOutstanding } from "./saveErrors.ts";
import { TotalsPanel } from "./TotalsPanel.tsx";
import { conversionsFrom, leavesSomething, useDocType, type WebDocType } from "./types.ts";
import { useDocumentCommands } from "./useDocumentCommands.ts";
import { useLiveDocument } from "./useLiveDocument.ts";

// One document page for every type (issue 10 §3): header, keyboard lines grid, live totals from the domain's
// computeTotals, Save draft through document_save, then exactly the actions document_actions offers (a reason asked
// where the machine needs one, cancel confirmed), "Create …" for each declared conversion, a payment on what a
// customer still owes (payments.ts), PDF and e-mail once numbered, and the flow, history and files of the document.
// The form's helpers are documentForm.ts, its commands useDocumentCommands, its buttons DocumentActionsBar and its
// header DocumentHeaderForm; modules add their own buttons and lines editors through extensions.ts.

export default function DocumentPage() {
  const def = useResourceDef();

  const t = useDocType(def.name);
  const params = useParams();
  const id = params.id && /^\d+$/.test(params.id) ? Number(params.id) : null;
  const isNew = params.id === undefined;
  const doc = useDocument(t, id);
  useLiveDocument(t, doc.data);
  const base = useDashboardBase();
  const paths = resourcePaths(base, def.route ?? "");
  const missing = !isNew && (id === null || (doc.error instanceof DataError && doc.error.status === 404));
  const refused = refusal(doc.error);
  // A new document's address, opened by someone who may read the type but not make one (a buyer and supplier
  // invoices), says why, as the generic form does, instead of an empty form nobody can fill.
  const creating = documentAccess(useMember(), t, "create");
  const title = isNew ? `New ${t.machine.title.toLowerCase()}` : t.machine.title;
  usePageTitle(doc.data?.number ?? title);

  if (missing) return <RecordMissing def={def} listPath={paths.list} />;
  if (isNew && !creating.allowed) return <RefusedPage subject={title} refusal={creating} home={base} />;
  if (refused) return <Alert severity="warning">{refused}</Alert>;
  if (!isNew && !doc.data) {
    return doc.isError ? (
      <Alert severity="error">{errorMessage(doc.error, "The document could not be loaded")}</Alert>
    ) : (
      <LinearProgress aria-label={`Loading the ${t.machine.title.toLowerCase()}`} />
    );
  }
  // Keyed by the stored version: a save, an action or a payment starts the form again from what the server says.
  return <DocumentEditor key={`${id ?? "new"}:${String(doc.data?.updated_at ?? "")}`} t={t} doc={doc.data ?? null} />;
}

function DocumentEditor({ t, doc }: { t: WebDocType; doc: DocRow | null }) {
  const member = useMember();
  const { currency: baseCurrency } = useViewer();
  const base = useDashboardBase();
  const paths = resourcePaths(base, t.header.route ?? "");
  const initial = useMemo(() => stateFrom(t, doc, baseCurrency), [t, doc, baseCurrency]);
  const [form, setForm] = useState<FormState>(initial);
  const [tab, setTab] = useState(0);
  const [emailing, setEmailing] = useState(false);
  const actions = useActions(t, doc ? Number(doc.id) : null, doc?.status);
  const labels = useDocumentLabels(t, doc ? Number(doc.id) : null);

  const status = doc?.status ?? t.machine.initial;
  const isDraft = status === t.machine.initial;
  const may = (action: string) => documentAccess(member, t, action).allowed;
  const editable = isDraft && may(doc ? "update" : "create");
  const dirty = editable && comparable(form) !== comparable(initial);
  const commands = useDocumentCommands(t, doc, form, dirty);
  const { errors } = commands;
  const currency = String(form.header.currency || baseCurrency);
  const live = useMemo(
    () => liveTotals(form.lines, String(form.header.discount_percent ?? "")),
    [form.lines, form.header.discount_percent],
  );
  const extras = [
    ...writableHeader(t).filter((f) => !LAID_OUT.has(f.name)),
    // Past draft, what an action wrote that the type lists (a transfer's reason for a shortfall), once given.
    ...(isDraft
      ? []
      : t.header.fields.filter(
          (f) =>
            f.readOnly && f.list && (f.kind === "text" || f.kind === "enum") && f.name !== "number" && doc?.[f.name],
        )),
  ];
  const lineFields = lineExtras(t, status);
  const setHeader = (name: string, v: unknown) => {
    setForm((s) => ({ ...s, header: { ...s.header, [name]: v } }));
    commands.clearError(name);
  };

  const offered = actions.data?.actions ?? [];
  // Why an action cannot run now. A guard read the saved draft: with edits pending, the action saves them first and
  // asks again — unless the type checks its unsaved form itself (a claim's figures), which then answers for Submit.
  const formBlock = dirty && t.blocked ? t.blocked(doc, form.header, form.lines) : null;
  const blockedNow = (a: OfferedAction): string | null =>
    dirty ? (a.action === "submit" ? formBlock : null) : (a.blocked ?? null);
  const conversions = doc
    ? conversionsFrom(t.type, status).filter(
        (to) =>
          leavesSomething(to, t.type, doc.lines) &&
          decide(member, {
            audience: "member",
            permission: `${to.type}.create`,
            feature: to.machine.feature,
            does: "create",
          }).allowed,
      )
    : [];
  // What is still owed means something once the invoice is submitted; a draft owes nothing yet (no "Outstanding 0.00").
  const outstanding = shownOutstanding(doc, isDraft);
  const title =
    doc?.number ?? (doc ? `Draft ${t.machine.title.toLowerCase()}` : `New ${t.machine.title.toLowerCase()}`);

  const page = (
    <Stack spacing={2} sx={{ pb: 4 }}>
      <PageCrumbs def={t.header} listPath={paths.list} current={title} />
      <Stack
        direction={{ xs: "column", md: "row" }}
        spacing={1.5}
        sx={{ justifyContent: "space-between", alignItems: { md: "center" } }}
      >
        <Stack direction="row" spacing={1.5} sx={{ alignItems: "center", flexWrap: "wrap" }} useFlexGap>
          <Typography variant="h5" component="h1" data-testid="doc-title">
            {t.machine.title} {doc?.number ?? ""}
          </Typography>
          <StatusChip type={t} status={status} />
          {doc && (
            <Typography variant="body2" color="text.secondary">
              {formatDate(String(doc.doc_date ?? ""))}
              {doc.created_by_user ? ` · by ${String((doc.created_by_user as Row).name)}` : ""}
            </Typography>
          )}
          {doc && <ReceivedNote header={doc} />}
        </Stack>
        <DocumentActionsBar
          t={t}
          doc={doc}
          status={status}
          isDraft={isDraft}
          editable={editable}
          currency={currency}
          commands={commands}
          offered={offered}
          loadingActions={actions.isFetching && !actions.data}
          conversions={conversions}
          blockedNow={blockedNow}
          may={may}
          onEmail={() => setEmailing(true)}
        />
      </Stack>

      {editable && errors.lines && <Alert severity="error">{errors.lines}</Alert>}
      {/* Why a draft cannot go on yet ("Add a line before sending the quotation"); later guards say it on hover. */}
      {offered
        .filter((a) => blockedNow(a) && isDraft)
        .map((a) => (
          <Alert key={a.action} severity="info" data-testid={`blocked-${a.action}`}>
            {a.label}: {blockedNow(a)}
          </Alert>
        ))}

      <Grid container spacing={2}>
        <Grid size={{ xs: 12, lg: t.editor ? 12 : 8 }}>
          <Card variant="outlined" sx={{ height: "100%" }}>
            <CardContent>
              <DocumentHeaderForm
                t={t}
                form={form}
                setForm={setForm}
                setHeader={setHeader}
                extras={extras}
                readOnly={!editable}
                errors={errors}
              />
            </CardContent>
          </Card>
        </Grid>
        {t.editor ? (
          <Grid size={12}>
            <Suspense fallback={<LinearProgress />}>
              <t.editor
                doc={doc}
                header={form.header}
                lines={form.lines}
                onChange={(lines) => setForm((s) => ({ ...s, lines }))}
                readOnly={!editable}
                currency={currency}
                errors={errors}
              />
            </Suspense>
          </Grid>
        ) : (
          <>
            <Grid size={{ xs: 12, lg: 4 }}>
              <Card variant="outlined" sx={{ height: "100%" }}>
                <CardContent>
                  <Typography variant="subtitle1" component="h2" sx={{ mb: 1 }}>
                    Totals
                  </Typography>
                  <TotalsPanel
                    totals={live.totals}
                    error={live.error}
                    currency={currency}
                    discountPercent={String(form.header.discount_percent ?? "")}
                    onDiscount={editable ? (v) => setHeader("discount_percent", v === "" ? null : v) : undefined}
                    outstanding={outstanding}
                    discountError={errors.discount_percent}
                  />
                </CardContent>
              </Card>
            </Grid>
            <Grid size={12}>
              <Card variant="outlined">
                <CardContent sx={{ px: { xs: 1, sm: 2 } }}>
                  <Typography variant="subtitle1" component="h2" sx={{ mb: 1 }}>
                    Lines
                  </Typography>
                  <LinesGrid
                    header={form.header}
                    lines={form.lines}
                    onChange={(lines) => setForm((s) => ({ ...s, lines }))}
                    readOnly={!editable}
                    totals={live.totals}
                    currency={currency}
                    extraFields={lineFields}
                    atCost={t.machine.valuedAtCost}
                    buying={t.machine.buying}
                    services={takesServices(t.type)}
                    errors={errors}
                  />
                </CardContent>
              </Card>
            </Grid>
          </>
        )}
      </Grid>

      {doc && <PaymentsPanel type={t} doc={doc} currency={currency} />}
      {doc &&
        t.panels.map((Panel, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the type's panels are a fixed list
          <Suspense key={i} fallback={null}>
            <Panel doc={doc} />
          </Suspense>
        ))}
      {doc && (
        <Card variant="outlined">
          <Tabs value={tab} onChange={(_, v) => setTab(v)} aria-label="Document details" variant="scrollable">
            <Tab label="Flow" id="doc-tab-flow" />
            <Tab label="History" id="doc-tab-history" />
            <Tab label="Files" id="doc-tab-files" />
          </Tabs>
          <CardContent>
            {tab === 0 && <FlowPanel type={t} doc={doc} />}
            {tab === 1 && <HistoryPanel type={t} id={Number(doc.id)} />}
            {tab === 2 && <FilesPanel type={t.type} id={Number(doc.id)} />}
          </CardContent>
        </Card>
      )}

      <UnsavedChanges dirty={dirty} saving={commands.saving} />
      {commands.asking && <ActionPrompt t={t} doc={doc} status={status} asking={commands.asking} commands={commands} />}
      {emailing && doc && (
        <EmailDialog
          open
          title={String(doc.number)}
          anyAddress={member.kind === "member" && can(member.permissions, "outside_email.create")}
          onCancel={() => setEmailing(false)}
          onConfirm={async (v) => {
            if (await commands.email(v)) setEmailing(false);
          }}
        />
      )}
    </Stack>
  );
  return <DocumentLabels.Provider value={labels}>{page}</DocumentLabels.Provider>;
}
