import type { OfferedAction } from "@workmetrics/domain/documents/machine";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import { ActionBlockedDialog, useActionCheck } from "./ActionCheck.tsx";
import { ActionInputsDialog } from "./ActionInputsDialog.tsx";
import type { DocRow } from "./api.ts";
import { cancelWording } from "./cancelWording.ts";
import { ReasonDialog } from "./DocumentDialogs.tsx";
import type { WebDocType } from "./types.ts";
import type { DocumentCommands } from "./useDocumentCommands.ts";

// What an action asks before it runs: its inputs (a transfer's received quantities), a reason the machine needs
// (kept in the history), or, for a cancel, a confirmation in the type's own words.
export function ActionPrompt(props: {
  t: WebDocType;
  doc: DocRow | null;
  status: string;
  asking: OfferedAction;
  commands: DocumentCommands;
}) {
  const { t, doc, status, asking, commands } = props;
  const cancelling = cancelWording(t.type, t.machine.title, status === t.machine.initial);
  const what = doc?.number ?? `this ${t.machine.title.toLowerCase()}`;
  const dismiss = () => commands.setAsking(null);
  // A cancel refused by what stands on the document says why before it is confirmed (ActionCheck.tsx).
  const blocked = useActionCheck(t, doc, asking);
  if (blocked) {
    return (
      <ActionBlockedDialog
        title={`${asking.label} ${what}?`}
        reason={blocked}
        dismissLabel={cancelling.keepLabel}
        onClose={dismiss}
      />
    );
  }
  if (asking.inputs?.length) {
    return (
      <ActionInputsDialog
        action={asking}
        inputs={
          t.machine.transitions.find((x) => x.action === asking.action && x.from.includes(status as never))?.inputs
        }
        lines={doc?.lines}
        title={`${asking.label} ${what}`}
        onCancel={dismiss}
        onConfirm={(values) => commands.run(asking, undefined, values)}
      />
    );
  }
  if (asking.needsReason) {
    return (
      <ReasonDialog
        open
        title={`${asking.label} ${what}?`}
        prompt="Give a reason; it is kept in the document's history."
        {...(asking.action === "cancel"
          ? { confirmLabel: cancelling.confirmLabel, dismissLabel: cancelling.keepLabel, destructive: true }
          : { confirmLabel: asking.label })}
        onCancel={dismiss}
        onConfirm={(reason) => commands.run(asking, reason)}
      />
    );
  }
  return (
    <ConfirmDialog
      open
      title={`${asking.label} ${what}?`}
      body={cancelling.body}
      confirmLabel={cancelling.confirmLabel}
      dismissLabel={cancelling.keepLabel}
      destructive
      onCancel={dismiss}
      onConfirm={() => commands.run(asking)}
    />
  );
}
