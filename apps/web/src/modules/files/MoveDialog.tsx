import FolderOutlined from "@mui/icons-material/FolderOutlined";
import Alert from "@mui/material/Alert";
import Breadcrumbs from "@mui/material/Breadcrumbs";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Link from "@mui/material/Link";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import type { SupabaseClient } from "@supabase/supabase-js";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { type Entry, join, listPage, messageOf, parentOf } from "./files-api.ts";

// Picks the folder to move an entry into, by walking the folders as the page does.
export function MoveDialog(props: {
  client: SupabaseClient;
  scope: string; // the signed-in user, so cached folders never cross sign-ins
  entry: Entry;
  onCancel(): void;
  onMove(folder: string): Promise<void>;
}) {
  const { entry } = props;
  const [folder, setFolder] = useState(parentOf(entry.path));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const folders = useQuery({
    queryKey: ["files", props.scope, "folders", folder],
    queryFn: async () => (await listPage(props.client, folder, 0)).entries.filter((e) => e.kind === "folder"),
  });
  const here = parentOf(entry.path) === folder;
  // A folder cannot go inside itself.
  const inside = entry.kind === "folder" && (folder === entry.path || folder.startsWith(`${entry.path}/`));
  const crumbs = folder ? folder.split("/") : [];

  async function move() {
    setBusy(true);
    setError(null);
    try {
      await props.onMove(folder);
    } catch (err) {
      setError(messageOf(err, "Could not move it"));
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={busy ? undefined : props.onCancel} fullWidth maxWidth="xs">
      <DialogTitle>Move “{entry.name}”</DialogTitle>
      <DialogContent>
        <Breadcrumbs aria-label="Destination folder" sx={{ mb: 1 }}>
          <Link component="button" type="button" onClick={() => setFolder("")} underline="hover">
            My files
          </Link>
          {crumbs.map((c, i) => (
            <Link
              key={crumbs.slice(0, i + 1).join("/")}
              component="button"
              type="button"
              underline="hover"
              onClick={() => setFolder(crumbs.slice(0, i + 1).join("/"))}
            >
              {c}
            </Link>
          ))}
        </Breadcrumbs>
        {folders.isPending ? (
          <Skeleton variant="rounded" height={96} />
        ) : folders.isError ? (
          <Alert severity="error">{messageOf(folders.error, "Could not load the folders")}</Alert>
        ) : folders.data.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ py: 2 }}>
            No folders inside this one.
          </Typography>
        ) : (
          <List dense aria-label="Folders" sx={{ maxHeight: 280, overflowY: "auto" }}>
            {folders.data.map((f) => (
              <ListItemButton
                key={f.path}
                disabled={f.path === entry.path}
                onClick={() => setFolder(join(folder, f.name))}
              >
                <ListItemIcon sx={{ minWidth: 36 }}>
                  <FolderOutlined fontSize="small" />
                </ListItemIcon>
                <ListItemText primary={f.name} />
              </ListItemButton>
            ))}
          </List>
        )}
        {error && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" loading={busy} disabled={here || inside} onClick={move}>
          Move here
        </Button>
      </DialogActions>
    </Dialog>
  );
}
