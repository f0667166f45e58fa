import AttachFileOutlined from "@mui/icons-material/AttachFileOutlined";
import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import Link from "@mui/material/Link";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import Typography from "@mui/material/Typography";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { errorMessage, formatBytes, STORAGE_ACTIONS } from "@workmetrics/domain";
import { useRef, useState } from "react";
import toast from "react-hot-toast";
import { useDecision } from "../../platform/resource/access.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import { type Entry, ensureBucket, files, listPage, removeEntry, signedUrl } from "../files/files-api.ts";

// A document's attached files (issue 10 §3) in the workspace's storage, under documents/<type>/<id>/: the same
// files, rights and limits as My files, so an attachment is also found there.

export const documentFolder = (type: string, id: number) => `documents/${type}/${id}`;

export function FilesPanel({ type, id }: { type: string; id: number }) {
  const { client } = useViewer();
  const qc = useQueryClient();
  const folder = documentFolder(type, id);
  const mayRead = useDecision(STORAGE_ACTIONS["file.read"]).allowed;
  const mayUpload = useDecision(STORAGE_ACTIONS["file.create"]).allowed;
  const mayDelete = useDecision(STORAGE_ACTIONS["file.delete"]).allowed;
  const input = useRef<HTMLInputElement>(null);
  const [removing, setRemoving] = useState<Entry | null>(null);
  const key = ["storage", "document-files", folder];
  const list = useQuery({
    queryKey: key,
    queryFn: async () => (client ? (await listPage(client, folder, 0)).entries.filter((e) => e.kind === "file") : []),
    enabled: Boolean(client) && mayRead,
  });
  const upload = useMutation({
    mutationFn: async (chosen: File[]) => {
      if (!client) return;
      await ensureBucket(client.storage);
      for (const f of chosen) {
        const { error } = await files(client).upload(`${folder}/${f.name}`, f, {
          contentType: f.type || "application/octet-stream",
          upsert: false,
        });
        if (error) throw new Error(error.message.includes("exists") ? `${f.name} is already attached` : error.message);
      }
    },
    onSuccess: () => toast.success("Attached"),
    onError: (err) => toast.error(errorMessage(err, "The file could not be attached")),
    onSettled: () => qc.invalidateQueries({ queryKey: key }),
  });
  const open = async (e: Entry) => {
    if (!client) return;
    try {
      window.open(await signedUrl(client, e.path, 300), "_blank", "noopener");
    } catch (err) {
      toast.error(errorMessage(err, "The file could not be opened"));
    }
  };
  if (!mayRead) return <Alert severity="info">You do not have permission to read files.</Alert>;
  return (
    <Box>
      {mayUpload && (
        <>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            aria-label="Attach files"
            onChange={(e) => {
              const chosen = [...(e.target.files ?? [])];
              e.target.value = "";
              if (chosen.length) upload.mutate(chosen);
            }}
          />
          <Button
            variant="outlined"
            startIcon={<AttachFileOutlined />}
            onClick={() => input.current?.click()}
            loading={upload.isPending}
          >
            Attach files
          </Button>
        </>
      )}
      {list.isPending && <LinearProgress sx={{ mt: 2 }} aria-label="Loading the files" />}
      {list.isError && <Alert severity="warning">{errorMessage(list.error, "The files could not be loaded")}</Alert>}
      {list.data && list.data.length === 0 && (
        <Typography color="text.secondary" sx={{ mt: 2 }}>
          No files attached yet.
        </Typography>
      )}
      <List dense>
        {list.data?.map((e) => (
          <ListItem
            key={e.path}
            secondaryAction={
              mayDelete && (
                <IconButton edge="end" aria-label={`Remove ${e.name}`} onClick={() => setRemoving(e)}>
                  <DeleteOutlined />
                </IconButton>
              )
            }
          >
            <ListItemText
              primary={
                <Link component="button" onClick={() => open(e)} underline="hover">
                  {e.name}
                </Link>
              }
              secondary={e.kind === "file" ? formatBytes(e.size) : undefined}
            />
          </ListItem>
        ))}
      </List>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.name ?? ""}?`}
        body="The file is deleted from the workspace's storage for everyone."
        confirmLabel="Remove"
        destructive
        onCancel={() => setRemoving(null)}
        onConfirm={async () => {
          if (client && removing) {
            try {
              await removeEntry(client, removing);
              toast.success(`Removed ${removing.name}`);
            } catch (err) {
              toast.error(errorMessage(err, "The file could not be removed"));
            }
          }
          setRemoving(null);
          await qc.invalidateQueries({ queryKey: key });
        }}
      />
    </Box>
  );
}
