import type { SupabaseClient } from "@supabase/supabase-js";
import toast from "react-hot-toast";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import type { Action } from "./FileTable.tsx";
import { type Entry, join, messageOf, moveEntry, parentOf, removeEntry } from "./files-api.ts";
import { MoveDialog } from "./MoveDialog.tsx";
import { NameDialog } from "./NameDialog.tsx";
import { ShareDialog } from "./ShareDialog.tsx";

export type Pending = { action: Exclude<Action, "preview" | "download">; entry: Entry };

// The dialog for one action on one file or folder; onChanged runs after a change the list must show.
export function EntryDialogs(props: {
  client: SupabaseClient;
  scope: string;
  pending: Pending;
  onClose(): void;
  onChanged(message: string): Promise<void>;
}) {
  const { client, pending, onClose, onChanged } = props;
  const { entry } = pending;
  const what = entry.kind === "folder" ? "folder" : "file";

  switch (pending.action) {
    case "share":
      return <ShareDialog client={client} entry={entry} onClose={onClose} />;
    case "rename":
      return (
        <NameDialog
          title={`Rename ${what}`}
          label="New name"
          initial={entry.name}
          confirmLabel="Rename"
          onCancel={onClose}
          onSubmit={async (name) => {
            if (name === entry.name) return onClose();
            await moveEntry(client, entry, join(parentOf(entry.path), name));
            await onChanged(`Renamed to ${name}`);
          }}
        />
      );
    case "move":
      return (
        <MoveDialog
          client={client}
          scope={props.scope}
          entry={entry}
          onCancel={onClose}
          onMove={async (folder) => {
            await moveEntry(client, entry, join(folder, entry.name));
            await onChanged(`Moved ${entry.name} to ${folder || "My files"}`);
          }}
        />
      );
    case "delete":
      return (
        <ConfirmDialog
          open
          title={`Delete ${what}?`}
          body={
            entry.kind === "folder"
              ? `“${entry.name}” and everything in it will be deleted for everyone in your workspace. This cannot be undone.`
              : `“${entry.name}” will be deleted for everyone in your workspace. This cannot be undone.`
          }
          confirmLabel="Delete"
          destructive
          onCancel={onClose}
          onConfirm={async () => {
            try {
              await removeEntry(client, entry);
              await onChanged(`Deleted ${entry.name}`);
            } catch (err) {
              toast.error(messageOf(err, `Could not delete ${entry.name}`));
            }
          }}
        />
      );
  }
}
