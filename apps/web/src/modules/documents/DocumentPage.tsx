import EmailOutlined from "@mui/icons-material/EmailOutlined";
import PictureAsPdfOutlined from "@mui/icons-material/PictureAsPdfOutlined";
import SaveOutlined from "@mui/icons-material/SaveOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Grid from "@mui/material/Grid";
import LinearProgress from "@mui/material/LinearProgress";
import Stack from "@mui/material/Stack";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { decide, errorMessage, type Member } from "@workmetrics/domain";
import type { OfferedAction } from "@workmetrics/domain/documents/machine";
import type { FieldDef } from "@workmetrics/domain/resources/types";
import { Suspense, useContext, useMemo, useRef, useState } from "react";
import toast from "react-hot-toast";
import { useNavigate, useParams } from "react-router";
import { DataError, refusal } from "../../platform/data-access/errors.ts";
import { type Row, useDataProvider } from "../../platform/data-access/provider.ts";
import { formatDate } from "../../platform/fields/format.ts";
import { useMember, useReadable } from "../../platform/resource/access.ts";
import { formFields, showsWorkspace } from "../../platform/resource/definition.ts";
import { useResourceDef } from "../../platform/resource/hooks.ts";
import { PageCrumbs, RecordMissing } from "../../platform/resource/PageParts.tsx";
import { resourcePaths, useDashboardBase } from "../../platform/resource/paths.ts";
import { UnsavedChanges } from "../../platform/resource/UnsavedChanges.tsx";
import { useViewer } from "../../platform/session/viewer.tsx";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import { RefusedPage } from "../../platform/ui/GatePage.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { ActionInputsDialog, ReceivedNote } from "./ActionInputsDialog.tsx";
import { type DocRow, useActions, useDocument, useDocumentLabels, useRefreshDocuments } from "./api.ts";
import { cancelWording } from "./cancelWording.ts";
import { EmailDialog, ReasonDialog } from "./DocumentDialogs.tsx";
import { FilesPanel } from "./FilesPanel.tsx";
import { FlowPanel } from "./FlowPanel.tsx";
import { HistoryPanel } from "./HistoryPanel.tsx";
import { takesServices } from "./items.ts";
import { LinesGrid } from "./LinesGrid.tsx";
import { emptyLine, isBlank, type LineDraft, lineFromRow, lineToSave, liveTotals } from "./lines.ts";
import { PaymentsPanel } from "./PaymentsPanel.tsx";
import { Picker } from "./Picker.tsx";
import { DocumentLabels, RecordField } from "./RecordField.tsx";
import { RecordPaymentButton } from "./RecordPaymentButton.tsx";
import { StatusChip } from "./StatusChip.tsx";
import { headerMessages, shownOutstanding } from "./saveErrors.ts";
import { TotalsPanel } from "./TotalsPanel.tsx";
import { conversionsFrom, docType, hasCustomer, type WebDocType } from "./types.ts";
import { useLiveDocument } from "./useLiveDocument.ts";

// One document page for every type (issue 10 §3): header, keyboard lines grid, live totals from the domain's
// computeTotals, Save draft through document_save, then exactly the actions document_actions offers (a reason asked
// where the machine needs one, cancel confirmed), "Create …" for each declared conversion, a payment on what a
// customer still owes (payments.ts), PDF and e-mail once numbered, and the flow, history and files of the document.

// Header fields the page lays out itself; any other writable field is the type's own and shown by its kind.
const LAID_OUT = new Set([
  "company_id",
  "contact_id",
  "project_id",
  "doc_date",
  "currency",
  "rate",
  "notes",
  "terms",
  "discount_percent",
  "discount_amount",
]);
const LINE_BUILT_IN = new Set([
  "product_id",
  "service_id",
  "sku",
  "description",
  "unit",
  "qty",
  "unit_price",
  "discount_percent",
  "tax_code",
  "source_line_id",
]);

type Header = Record<string, unknown>;
type FormState = { header: Header; lines: LineDraft[]; company: Row | null; contact: Row | null };

const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
};

function writableHeader(t: WebDocType): FieldDef[] {
  return formFields(t.header, "create").filter(showsWorkspace);
}

// Past draft, the line quantities a type lists (read-only, `list`: a transfer's received and short quantities, a
// loan's returned and sold) are shown beside its own fields.
function lineExtras(t: WebDocType, status?: string): FieldDef[] {
  const own = formFields(t.lines, "create").filter(
    (f) => showsWorkspace(f) && !LINE_BUILT_IN.has(f.name) && f.name !== `${t.type}_id` && f.name !== "line_no",
  );
  if (status === undefined || status === t.machine.initial) return own;
  return [...own, ...t.lines.fields.filter((f) => f.readOnly && f.list)];
}

function stateFrom(t: WebDocType, doc: DocRow | null, currency: string): FormState {
  const fields = writableHeader(t);
  if (!doc) {
    const header: Header = Object.fromEntries(fields.map((f) => [f.name, null]));
    return { header: { ...header, doc_date: today(), currency }, lines: [emptyLine()], company: null, contact: null };
  }
  // Past draft, the read-only header fields a type lists (a supplier invoice's three-way verdict) come along, so
  // the header shows their values.
  const shown = doc.status === t.machine.initial ? [] : t.header.fields.filter((f) => f.readOnly && f.list);
  const header: Header = Object.fromEntries([...fields, ...shown].map((f) => [f.name, doc[f.name] ?? null]));
  const extras = lineExtras(t, doc.status);
  return {
    header,
    lines: doc.lines.map((l) => lineFromRow(l, extras)),
    company: (doc.company as Row | null) ?? null,
    contact: (doc.contact as Row | null) ?? null,
  };
}

const comparable = (s: FormState) =>
  JSON.stringify([s.header, s.lines.filter((l) => !isBlank(l)).map((l) => ({ ...l, key: "" }))]);

function headerErrors(err: unknown, t: WebDocType): Record<string, string> {
  if (!(err instanceof DataError)) return {};
  return headerMessages(err.fields, t.header.fields);
}

// What a member may do with a type's documents: the rule the server applies to document_save and its actions.
function documentAccess(member: Member, t: WebDocType, action: string) {
  return decide(member, {
    audience: "member",
    permission: `${t.type}.${action}`,
    feature: t.machine.feature,
    subject: t.machine.plural,
    does: `${action} ${t.machine.plural.toLowerCase()}`,
  });
}

export default function DocumentPage() {
  const def = useResourceDef();

  const t = docType(def.name);
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
  const navigate = useNavigate();
  const data = useDataProvider();
  const member = useMember();
  const { currency: baseCurrency } = useViewer();
  const base = useDashboardBase();
  const paths = resourcePaths(base, t.header.route ?? "");
  const refresh = useRefreshDocuments();
  const initial = useMemo(() => stateFrom(t, doc, baseCurrency), [t, doc, baseCurrency]);
  const [form, setForm] = useState<FormState>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [tab, setTab] = useState(0);
  const [asking, setAsking] = useState<OfferedAction | null>(null);
  const [emailing, setEmailing] = useState(false);
  const saving = useRef(false);
  const actions = useActions(t, doc ? Number(doc.id) : null, doc?.status);
  const labels = useDocumentLabels(t, doc ? Number(doc.id) : null);

  const status = doc?.status ?? t.machine.initial;
  const isDraft = status === t.machine.initial;
  const cancelling = cancelWording(t.type, t.machine.title, isDraft);
  const may = (action: string) => documentAccess(member, t, action).allowed;
  const editable = isDraft && may(doc ? "update" : "create");
  const dirty = editable && comparable(form) !== comparable(initial);
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
  // A field the clerk changes no longer shows what the server said of its old value ("Choose a supplier").
  const setHeader = (name: string, v: unknown) => {
    setForm((s) => ({ ...s, header: { ...s.header, [name]: v } }));
    setErrors((e) => {
      if (!(name in e)) return e;
      const rest = { ...e };
      delete rest[name];
      return rest;
    });
  };

  const fail = (err: unknown, fallback: string) => {
    const found = headerErrors(err, t);
    setErrors(found);
    // The toast says what the field says (not zod's "expected number, received undefined").
    const first = err instanceof DataError ? Object.keys(err.fields)[0] : undefined;
    const said = first ? found[first.replace(/^header\./, "")] : undefined;
    toast.error(said || errorMessage(err, fallback));
  };

  // document_save; a new draft's page becomes its own address.
  async function save(): Promise<DocRow | null> {
    // A field left empty is not sent (the server defaults it); one the clerk emptied is sent as null.
    const header: Header = Object.fromEntries(
      Object.entries(form.header).filter(([k, v]) => (v !== null && v !== "") || (doc && doc[k] != null)),
    );
    const args = {
      type: t.type,
      ...(doc ? { id: Number(doc.id) } : {}),
      header,
      lines: form.lines.filter((l) => !isBlank(l)).map(lineToSave),
    };
    try {
      saving.current = true;
      const saved = await data.rpc<DocRow>("document_save", args);
      setErrors({});
      await refresh();
      if (!doc) navigate(paths.show(String(saved.id)), { replace: true });
      return saved;
    } catch (err) {
      fail(err, "The draft could not be saved");
      return null;
    } finally {
      saving.current = false;
    }
  }

  async function onSave() {
    setBusy("save");
    const saved = await save();
    setBusy(null);
    if (saved) toast.success(doc ? "Draft saved" : `${t.machine.title} draft created`);
  }

  async function run(a: OfferedAction, reason?: string, values?: Record<string, unknown>) {
    if (!doc) return;
    setBusy(a.action);
    try {
      // Unsaved edits go with the action: save first, then act on what was saved.
      if (dirty && !(await save())) return;
      const answer = await data.rpc<DocRow>("document_transition", {
        type: t.type,
        id: Number(doc.id),
        action: a.action,
        ...(reason ? { reason } : {}),
        ...(values ? { values } : {}),
      });
      await refresh();
      toast.success(
        `${t.machine.title} ${answer.number ?? ""}: ${t.machine.statuses[answer.status]?.label ?? answer.status}`.replace(
          / {2}/g,
          " ",
        ),
      );
    } catch (err) {
      fail(err, `${a.label} failed`);
    } finally {
      setBusy(null);
      setAsking(null);
    }
  }

  async function convert(to: WebDocType) {
    if (!doc) return;
    setBusy(`convert:${to.type}`);
    try {
      const made = await data.rpc<DocRow>("document_convert", { type: t.type, id: Number(doc.id), to: to.type });
      await refresh();
      toast.success(`${to.machine.title} draft made from ${doc.number ?? "this document"}`);
      navigate(resourcePaths(base, to.header.route ?? "").show(String(made.id)));
    } catch (err) {
      fail(err, `The ${to.machine.title.toLowerCase()} could not be made`);
    } finally {
      setBusy(null);
    }
  }

  // document_amend (a cancelled document as a new draft that takes its number with a suffix) and document_duplicate.
  async function remake(fn: "document_amend" | "document_duplicate") {
    if (!doc) return;
    setBusy(fn);
    try {
      const made = await data.rpc<DocRow>(fn, { type: t.type, id: Number(doc.id) });
      await refresh();
      toast.success(`${fn === "document_amend" ? "Amendment" : "Copy"} of ${doc.number ?? "this document"} drafted`);
      navigate(paths.show(String(made.id)));
    } catch (err) {
      fail(err, fn === "document_amend" ? "It could not be amended" : "It could not be duplicated");
    } finally {
      setBusy(null);
    }
  }

  const offered = actions.data?.actions ?? [];
  // Why an action cannot run now. A guard read the saved draft: with edits pending, the action saves them first and
  // asks again — unless the type checks its unsaved form itself (a claim's figures), which then answers for Submit.
  const formBlock = dirty && t.blocked ? t.blocked(doc, form.header, form.lines) : null;
  const blockedNow = (a: OfferedAction): string | null =>
    dirty ? (a.action === "submit" ? formBlock : null) : (a.blocked ?? null);
  const conversions = doc
    ? conversionsFrom(t.type, status).filter(
        (to) =>
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

  const actionButton = (a: OfferedAction) => {
    const destructive = a.action === "cancel";
    const button = (
      <Button
        key={a.action}
        variant={a.action === "submit" ? "contained" : "outlined"}
        color={destructive ? "error" : "primary"}
        disabled={Boolean(blockedNow(a)) || (busy !== null && busy !== a.action)}
        loading={busy === a.action}
        onClick={() => (a.needsReason || destructive || a.inputs?.length ? setAsking(a) : run(a))}
      >
        {a.label}
      </Button>
    );
    const why = blockedNow(a);
    return why ? (
      <Tooltip key={a.action} title={why}>
        <span>{button}</span>
      </Tooltip>
    ) : (
      button
    );
  };

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
        <Stack
          direction="row"
          spacing={{ xs: 0.75, sm: 1 }}
          useFlexGap
          // A phone keeps a draft's actions on one row (Save, Submit, Cancel, Duplicate): tighter buttons, no icons.
          sx={{
            flexWrap: "wrap",
            "& .MuiButton-root": { px: { xs: 1.25, sm: 2 }, minWidth: { xs: 0, sm: 64 } },
            "& .MuiButton-startIcon": { display: { xs: "none", sm: "inherit" } },
          }}
          data-testid="doc-actions"
        >
          {editable && (
            <Button
              variant={doc ? "outlined" : "contained"}
              startIcon={<SaveOutlined />}
              onClick={onSave}
              loading={busy === "save"}
              disabled={busy !== null && busy !== "save"}
            >
              Save draft
            </Button>
          )}
          {actions.isFetching && !actions.data && <Button loading>Actions</Button>}
          {offered.filter((a) => a.action !== "cancel").map(actionButton)}
          {conversions.map((to) => (
            <Button
              key={to.type}
              variant="outlined"
              onClick={() => convert(to)}
              loading={busy === `convert:${to.type}`}
              disabled={busy !== null && busy !== `convert:${to.type}`}
            >
              Create {to.machine.title.toLowerCase()}
            </Button>
          ))}
          {doc && status === "cancelled" && may("create") && (
            <Button
              variant="outlined"
              onClick={() => remake("document_amend")}
              loading={busy === "document_amend"}
              disabled={busy !== null && busy !== "document_amend"}
            >
              Amend
            </Button>
          )}
          {doc && may("create") && !t.convertOnly && (
            <Button
              variant="text"
              onClick={() => remake("document_duplicate")}
              loading={busy === "document_duplicate"}
              disabled={busy !== null && busy !== "document_duplicate"}
            >
              Duplicate
            </Button>
          )}
          {doc && t.pageActions.length > 0 && (
            <Suspense fallback={null}>
              {t.pageActions.map((Action, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a type's page actions are a fixed list
                <Action key={i} doc={doc} status={status} />
              ))}
            </Suspense>
          )}
          {doc && !isDraft && <RecordPaymentButton type={t.type} doc={doc} currency={currency} />}
          {doc?.number && (
            <Button
              variant="text"
              startIcon={<PictureAsPdfOutlined />}
              href={`/api/documents/${t.type}/${String(doc.id)}/pdf`}
              target="_blank"
              rel="noopener"
            >
              PDF
            </Button>
          )}
          {doc?.number && (
            <Button variant="text" startIcon={<EmailOutlined />} onClick={() => setEmailing(true)}>
              E-mail
            </Button>
          )}
          {/* The destructive action last, after what the document leads to. */}
          {offered.filter((a) => a.action === "cancel").map(actionButton)}
        </Stack>
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
              <HeaderForm
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

      <UnsavedChanges dirty={dirty} saving={saving} />
      {asking &&
        (asking.inputs?.length ? (
          <ActionInputsDialog
            action={asking}
            inputs={
              t.machine.transitions.find((x) => x.action === asking.action && x.from.includes(status as never))?.inputs
            }
            lines={doc?.lines}
            title={`${asking.label} ${doc?.number ?? `this ${t.machine.title.toLowerCase()}`}`}
            onCancel={() => setAsking(null)}
            onConfirm={(values) => run(asking, undefined, values)}
          />
        ) : asking.needsReason ? (
          <ReasonDialog
            open
            title={`${asking.label} ${doc?.number ?? `this ${t.machine.title.toLowerCase()}`}?`}
            prompt="Give a reason; it is kept in the document's history."
            {...(asking.action === "cancel"
              ? { confirmLabel: cancelling.confirmLabel, dismissLabel: cancelling.keepLabel, destructive: true }
              : { confirmLabel: asking.label })}
            onCancel={() => setAsking(null)}
            onConfirm={(reason) => run(asking, reason)}
          />
        ) : (
          <ConfirmDialog
            open
            title={`${asking.label} ${doc?.number ?? `this ${t.machine.title.toLowerCase()}`}?`}
            body={cancelling.body}
            confirmLabel={cancelling.confirmLabel}
            dismissLabel={cancelling.keepLabel}
            destructive
            onCancel={() => setAsking(null)}
            onConfirm={() => run(asking)}
          />
        ))}
      {emailing && doc && (
        <EmailDialog
          open
          title={String(doc.number)}
          onCancel={() => setEmailing(false)}
          onConfirm={async (v) => {
            try {
              await data.rpc("document_email", {
                type: t.type,
                id: Number(doc.id),
                ...(v.to ? { to: v.to } : {}),
                ...(v.message ? { message: v.message } : {}),
              });
              await refresh();
              toast.success(`${String(doc.number)} is queued to send; its history shows when it has gone`);
              setEmailing(false);
            } catch (err) {
              toast.error(errorMessage(err, "The e-mail could not be sent"));
            }
          }}
        />
      )}
    </Stack>
  );
  return <DocumentLabels.Provider value={labels}>{page}</DocumentLabels.Provider>;
}

function HeaderForm(props: {
  t: WebDocType;
  form: FormState;
  setForm: React.Dispatch<React.SetStateAction<FormState>>;
  setHeader(name: string, v: unknown): void;
  extras: FieldDef[];
  readOnly: boolean;
  errors: Record<string, string>;
}) {
  const { t, form, setForm, setHeader, extras, readOnly, errors } = props;
  const h = form.header;
  const text = (name: string) => (h[name] === null || h[name] === undefined ? "" : String(h[name]));
  const field = (name: string) => t.header.fields.find((f) => f.name === name);
  const companyId = h.company_id == null ? null : Number(h.company_id);
  const customer = hasCustomer(t);
  const labels = useContext(DocumentLabels);
  const named = (resource: string, id: unknown) => (id == null ? undefined : labels[resource]?.[String(id)]);
  const data = useDataProvider();
  const { currency: base } = useViewer();
  const readable = useReadable();
  const project = field("project_id");
  const foreign = text("currency") !== "" && text("currency") !== base;
  // A customer chosen: its primary contact (else its first) fills the contact, unless one was chosen meanwhile.
  const defaultContact = async (id: number) => {
    if (!readable("contact")) return;
    const found = await data
      .getList("contact", {
        select: "id,name,company_id",
        filters: [{ column: "company_id", op: "eq", value: String(id) }],
        order: [
          { column: "is_primary", ascending: false },
          { column: "id", ascending: true },
        ],
        range: [0, 0],
      })
      .catch(() => null);
    const first = found?.data[0];
    if (!first) return;
    setForm((s) =>
      s.header.company_id === id && s.header.contact_id == null
        ? { ...s, contact: first, header: { ...s.header, contact_id: Number(first.id) } }
        : s,
    );
  };
  return (
    <Grid container spacing={2}>
      {customer && (
        <Grid size={{ xs: 12, sm: 6 }}>
          {readOnly ? (
            <ReadOnly
              label={field("company_id")?.label ?? "Customer"}
              value={form.company ? String(form.company.name) : (named("company", h.company_id) ?? "—")}
            />
          ) : (
            <Picker
              resource="company"
              label={field("company_id")?.label ?? "Customer"}
              required
              select="id,name"
              display="name"
              search={["name"]}
              // Suppliers on the buying documents, customers on the others.
              filters={[{ column: t.machine.buying ? "is_supplier" : "is_customer", op: "eq", value: "true" }]}
              value={form.company}
              onChange={(r) => {
                setForm((s) => ({
                  ...s,
                  company: r,
                  contact: r && s.contact && s.contact.company_id === r.id ? s.contact : null,
                  header: { ...s.header, company_id: r ? Number(r.id) : null, contact_id: null },
                }));
                if (r) void defaultContact(Number(r.id));
              }}
              size="small"
              error={errors.company_id}
              autoFocus={!h.company_id}
              testId="doc-customer"
            />
          )}
        </Grid>
      )}
      {customer && (
        <Grid size={{ xs: 12, sm: 6 }}>
          {readOnly ? (
            <ReadOnly
              label="Contact"
              value={form.contact ? String(form.contact.name) : (named("contact", h.contact_id) ?? "—")}
            />
          ) : (
            <Picker
              resource="contact"
              label="Contact"
              select="id,name,company_id"
              display="name"
              search={["name", "email"]}
              filters={companyId ? [{ column: "company_id", op: "eq", value: String(companyId) }] : []}
              value={form.contact}
              onChange={(r) =>
                setForm((s) => ({ ...s, contact: r, header: { ...s.header, contact_id: r ? Number(r.id) : null } }))
              }
              size="small"
              disabled={!companyId}
              error={errors.contact_id}
            />
          )}
        </Grid>
      )}
      {project && (readable("project") || h.project_id != null) && (
        <Grid size={{ xs: 12, sm: 6 }}>
          {readOnly ? (
            <Box>
              <Typography variant="caption" color="text.secondary">
                {project.label}
              </Typography>
              <RecordField field={project} value={h.project_id} onChange={() => undefined} readOnly />
            </Box>
          ) : (
            <RecordField
              field={project}
              value={h.project_id}
              onChange={(v) => setHeader("project_id", v)}
              error={errors.project_id}
            />
          )}
        </Grid>
      )}
      <Grid size={{ xs: 6, sm: 3 }}>
        {readOnly ? (
          <ReadOnly label="Date" value={formatDate(text("doc_date")) || "—"} />
        ) : (
          <TextField
            label="Date"
            type="date"
            size="small"
            fullWidth
            value={text("doc_date")}
            onChange={(e) => setHeader("doc_date", e.target.value || null)}
            error={Boolean(errors.doc_date)}
            helperText={errors.doc_date}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        )}
      </Grid>
      <Grid size={{ xs: 6, sm: 3 }}>
        {readOnly ? (
          <ReadOnly label="Currency" value={text("currency") || "—"} />
        ) : (
          <TextField
            label="Currency"
            size="small"
            fullWidth
            value={text("currency")}
            onChange={(e) => setHeader("currency", e.target.value.toUpperCase() || null)}
            error={Boolean(errors.currency)}
            helperText={errors.currency}
            slotProps={{ htmlInput: { maxLength: 3 } }}
          />
        )}
      </Grid>
      {/* Another currency than the workspace's: its rate to the base (the project's factor when it has one). */}
      {foreign && field("rate") && (
        <Grid size={{ xs: 6, sm: 3 }}>
          {readOnly ? (
            <ReadOnly label={`Rate in ${base} per ${text("currency")}`} value={text("rate") || "—"} />
          ) : (
            <TextField
              label={`Rate in ${base}`}
              size="small"
              fullWidth
              value={text("rate")}
              onChange={(e) => setHeader("rate", e.target.value.trim() || null)}
              error={Boolean(errors.rate)}
              helperText={errors.rate ?? `Per 1 ${text("currency")}; empty: the project's`}
              slotProps={{ htmlInput: { inputMode: "decimal", "aria-label": "Exchange rate" } }}
            />
          )}
        </Grid>
      )}
      {extras.map((f) => (
        <Grid key={f.name} size={{ xs: 12, sm: 6, md: 3 }}>
          {readOnly ? (
            <Box>
              <Typography variant="caption" color="text.secondary">
                {f.label}
              </Typography>
              <RecordField field={f} value={h[f.name]} onChange={() => undefined} readOnly />
            </Box>
          ) : (
            <RecordField field={f} value={h[f.name]} onChange={(v) => setHeader(f.name, v)} error={errors[f.name]} />
          )}
        </Grid>
      ))}
      {(["notes", "terms"] as const).map((name) =>
        field(name) ? (
          <Grid key={name} size={{ xs: 12, md: 6 }}>
            {readOnly ? (
              <ReadOnly label={field(name)?.label ?? name} value={text(name) || "—"} multiline />
            ) : (
              <TextField
                label={field(name)?.label}
                size="small"
                fullWidth
                multiline
                minRows={2}
                value={text(name)}
                onChange={(e) => setHeader(name, e.target.value || null)}
                error={Boolean(errors[name])}
                helperText={errors[name]}
              />
            )}
          </Grid>
        ) : null,
      )}
    </Grid>
  );
}

function ReadOnly({ label, value, multiline }: { label: string; value: string; multiline?: boolean }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body1" sx={{ whiteSpace: multiline ? "pre-wrap" : undefined }}>
        {value}
      </Typography>
    </Box>
  );
}
