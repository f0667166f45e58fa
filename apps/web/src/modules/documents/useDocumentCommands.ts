import { errorMessage } from "@workmetrics/domain";
import type { CommandArgs } from "@workmetrics/domain/commands";
import type { OfferedAction } from "@workmetrics/domain/documents/machine";
import { useRef, useState } from "react";
import toast from "react-hot-toast";
import { useNavigate } from "react-router";
import { DataError } from "../../platform/data-access/errors.ts";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { resourcePaths, useDashboardBase } from "../../platform/resource/paths.ts";
import { type DocRow, useRefreshDocuments } from "./api.ts";
import { type FormState, type Header, headerErrors } from "./documentForm.ts";
import { isBlank, lineToSave } from "./lines.ts";
import type { WebDocType } from "./types.ts";

// The document page's commands (issue 20 §5: out of DocumentEditor): save the draft, run an offered action (unsaved
// edits saved first), make another type from it, amend or duplicate it, e-mail it. Each says how it went in a toast,
// refreshes what the page read, and leaves the server's field messages in `errors`; `busy` names the one running.

export type DocumentCommands = ReturnType<typeof useDocumentCommands>;

export function useDocumentCommands(t: WebDocType, doc: DocRow | null, form: FormState, dirty: boolean) {
  const navigate = useNavigate();
  const data = useDataProvider();
  const base = useDashboardBase();
  const paths = resourcePaths(base, t.header.route ?? "");
  const refresh = useRefreshDocuments();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);
  // The action whose reason, inputs or confirmation is being asked.
  const [asking, setAsking] = useState<OfferedAction | null>(null);
  const saving = useRef(false);

  const fail = (err: unknown, fallback: string) => {
    const found = headerErrors(err, t);
    setErrors(found);
    // The toast says what the field says (not zod's "expected number, received undefined").
    const first = err instanceof DataError ? Object.keys(err.fields)[0] : undefined;
    const said = first ? found[first.replace(/^header\./, "")] : undefined;
    toast.error(said || errorMessage(err, fallback));
  };

  // A field the clerk changes no longer shows what the server said of its old value ("Choose a supplier").
  const clearError = (name: string) =>
    setErrors((e) => {
      if (!(name in e)) return e;
      const rest = { ...e };
      delete rest[name];
      return rest;
    });

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
      const saved = await data.command("document_save", args);
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
      const answer = await data.command("document_transition", {
        type: t.type,
        id: Number(doc.id),
        action: a.action,
        ...(reason ? { reason } : {}),
        ...(values ? { values: values as CommandArgs<"document_transition">["values"] } : {}),
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
      const made = await data.command("document_convert", { type: t.type, id: Number(doc.id), to: to.type });
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
      const made = await data.command(fn, { type: t.type, id: Number(doc.id) });
      await refresh();
      toast.success(`${fn === "document_amend" ? "Amendment" : "Copy"} of ${doc.number ?? "this document"} drafted`);
      navigate(paths.show(String(made.id)));
    } catch (err) {
      fail(err, fn === "document_amend" ? "It could not be amended" : "It could not be duplicated");
    } finally {
      setBusy(null);
    }
  }

  // document_email; true once it is queued (the dialog then closes).
  async function email(v: { to?: string; message?: string }): Promise<boolean> {
    if (!doc) return false;
    try {
      await data.command("document_email", {
        type: t.type,
        id: Number(doc.id),
        ...(v.to ? { to: v.to } : {}),
        ...(v.message ? { message: v.message } : {}),
      });
      await refresh();
      toast.success(`${String(doc.number)} is queued to send; its history shows when it has gone`);
      return true;
    } catch (err) {
      toast.error(errorMessage(err, "The e-mail could not be sent"));
      return false;
    }
  }

  return { errors, clearError, busy, asking, setAsking, saving, onSave, run, convert, remake, email };
}
