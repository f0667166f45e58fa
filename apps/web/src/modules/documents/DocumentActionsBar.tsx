import EmailOutlined from "@mui/icons-material/EmailOutlined";
import PictureAsPdfOutlined from "@mui/icons-material/PictureAsPdfOutlined";
import SaveOutlined from "@mui/icons-material/SaveOutlined";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";
import type { OfferedAction } from "@workmetrics/domain/documents/machine";
import { Suspense } from "react";
import type { DocRow } from "./api.ts";
import { RecordPaymentButton } from "./RecordPaymentButton.tsx";
import type { WebDocType } from "./types.ts";
import type { DocumentCommands } from "./useDocumentCommands.ts";

// A document's buttons (issue 20 §5: out of DocumentEditor): Save draft, the actions the server offers (a reason,
// inputs or a confirmation asked first where needed), "Create …" per conversion, Amend, Duplicate, the modules'
// own buttons, Record payment, PDF, E-mail — and the destructive Cancel last, after what the document leads to.

export function DocumentActionsBar(props: {
  t: WebDocType;
  doc: DocRow | null;
  status: string;
  isDraft: boolean;
  editable: boolean;
  currency: string;
  commands: DocumentCommands;
  offered: readonly OfferedAction[];
  loadingActions: boolean;
  conversions: readonly WebDocType[];
  // Why an action cannot run now, or null.
  blockedNow(a: OfferedAction): string | null;
  may(action: string): boolean;
  onEmail(): void;
}) {
  const { t, doc, status, isDraft, editable, currency, commands, offered, conversions, blockedNow, may } = props;
  const { busy, onSave, run, convert, remake, setAsking } = commands;
  const others = (name: string) => busy !== null && busy !== name;

  const actionButton = (a: OfferedAction) => {
    const destructive = a.action === "cancel";
    const button = (
      <Button
        key={a.action}
        variant={a.action === "submit" ? "contained" : "outlined"}
        color={destructive ? "error" : "primary"}
        disabled={Boolean(blockedNow(a)) || others(a.action)}
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

  return (
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
          disabled={others("save")}
        >
          Save draft
        </Button>
      )}
      {props.loadingActions && <Button loading>Actions</Button>}
      {offered.filter((a) => a.action !== "cancel").map(actionButton)}
      {conversions.map((to) => (
        <Button
          key={to.type}
          variant="outlined"
          onClick={() => convert(to)}
          loading={busy === `convert:${to.type}`}
          disabled={others(`convert:${to.type}`)}
        >
          Create {to.machine.title.toLowerCase()}
        </Button>
      ))}
      {doc && status === "cancelled" && may("create") && (
        <Button
          variant="outlined"
          onClick={() => remake("document_amend")}
          loading={busy === "document_amend"}
          disabled={others("document_amend")}
        >
          Amend
        </Button>
      )}
      {doc && may("create") && !t.convertOnly && (
        <Button
          variant="text"
          onClick={() => remake("document_duplicate")}
          loading={busy === "document_duplicate"}
          disabled={others("document_duplicate")}
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
        <Button variant="text" startIcon={<EmailOutlined />} onClick={props.onEmail}>
          E-mail
        </Button>
      )}
      {offered.filter((a) => a.action === "cancel").map(actionButton)}
    </Stack>
  );
}
