import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import DescriptionOutlined from "@mui/icons-material/DescriptionOutlined";
import DownloadOutlined from "@mui/icons-material/DownloadOutlined";
import DriveFileMoveOutlined from "@mui/icons-material/DriveFileMoveOutlined";
import DriveFileRenameOutlineOutlined from "@mui/icons-material/DriveFileRenameOutlineOutlined";
import FolderOutlined from "@mui/icons-material/FolderOutlined";
import ImageOutlined from "@mui/icons-material/ImageOutlined";
import MoreVertOutlined from "@mui/icons-material/MoreVertOutlined";
import PictureAsPdfOutlined from "@mui/icons-material/PictureAsPdfOutlined";
import ShareOutlined from "@mui/icons-material/ShareOutlined";
import VisibilityOutlined from "@mui/icons-material/VisibilityOutlined";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import { formatBytes } from "@workmetrics/domain";
import { type ReactNode, useState } from "react";
import { formatDate, previewKind } from "./FilePreview.tsx";
import type { Entry } from "./files-api.ts";

export type Action = "preview" | "download" | "share" | "rename" | "move" | "delete";

const ACTIONS: Array<{ action: Action; label: string; icon: ReactNode; files?: true; danger?: true }> = [
  { action: "preview", label: "Details", icon: <VisibilityOutlined fontSize="small" />, files: true },
  { action: "download", label: "Download", icon: <DownloadOutlined fontSize="small" />, files: true },
  { action: "share", label: "Share link", icon: <ShareOutlined fontSize="small" />, files: true },
  { action: "rename", label: "Rename", icon: <DriveFileRenameOutlineOutlined fontSize="small" /> },
  { action: "move", label: "Move to folder", icon: <DriveFileMoveOutlined fontSize="small" /> },
  { action: "delete", label: "Delete", icon: <DeleteOutlined fontSize="small" color="error" />, danger: true },
];

function EntryIcon({ entry }: { entry: Entry }) {
  if (entry.kind === "folder") return <FolderOutlined color="primary" />;
  const kind = previewKind(entry.type);
  if (kind === "image") return <ImageOutlined color="action" />;
  if (kind === "pdf") return <PictureAsPdfOutlined color="action" />;
  return <DescriptionOutlined color="action" />;
}

// The folder's entries: folders first, then files, each by name as the server sorted them. Only the actions the
// member may take are offered (`offered`).
export function FileTable(props: {
  entries: Entry[];
  offered(a: Action): boolean;
  onOpen(entry: Entry): void;
  onAction(a: Action, e: Entry): void;
}) {
  const [menu, setMenu] = useState<{ anchor: HTMLElement; entry: Entry } | null>(null);
  const actionsFor = (e: Entry) => ACTIONS.filter((a) => props.offered(a.action) && (!a.files || e.kind === "file"));
  const hide = { display: { xs: "none", sm: "table-cell" } };
  return (
    <>
      <Table size="small" aria-label="Files">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell align="right" sx={hide}>
              Size
            </TableCell>
            <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>Type</TableCell>
            <TableCell sx={hide}>Modified</TableCell>
            <TableCell align="right" aria-label="Actions" />
          </TableRow>
        </TableHead>
        <TableBody>
          {props.entries.map((e) => (
            <TableRow key={e.path} hover data-testid="file-row">
              <TableCell sx={{ maxWidth: 0, width: "100%" }}>
                <Stack direction="row" spacing={1.5} sx={{ alignItems: "center", minWidth: 0 }}>
                  <EntryIcon entry={e} />
                  <Link
                    component="button"
                    type="button"
                    underline="hover"
                    color="inherit"
                    onClick={() => props.onOpen(e)}
                    sx={{ textAlign: "left", overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}
                  >
                    {e.name}
                  </Link>
                </Stack>
              </TableCell>
              <TableCell align="right" sx={{ ...hide, whiteSpace: "nowrap" }}>
                {e.kind === "file" ? formatBytes(e.size) : "—"}
              </TableCell>
              <TableCell sx={{ display: { xs: "none", md: "table-cell" }, whiteSpace: "nowrap" }}>
                {e.kind === "file" ? e.type.split(";")[0] : "Folder"}
              </TableCell>
              <TableCell sx={{ ...hide, whiteSpace: "nowrap" }}>
                {e.kind === "file" ? formatDate(e.modified) : "—"}
              </TableCell>
              <TableCell align="right">
                {actionsFor(e).length > 0 && (
                  <IconButton
                    size="small"
                    aria-label={`Actions for ${e.name}`}
                    onClick={(ev) => setMenu({ anchor: ev.currentTarget, entry: e })}
                  >
                    <MoreVertOutlined fontSize="small" />
                  </IconButton>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Menu anchorEl={menu?.anchor} open={menu !== null} onClose={() => setMenu(null)}>
        {(menu ? actionsFor(menu.entry) : []).map((a) => (
          <MenuItem
            key={a.action}
            onClick={() => {
              if (menu) props.onAction(a.action, menu.entry);
              setMenu(null);
            }}
            sx={a.danger ? { color: "error.main" } : undefined}
          >
            <ListItemIcon>{a.icon}</ListItemIcon>
            <ListItemText>{a.label}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
