import AddIcon from "@mui/icons-material/Add";
import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import FileDownloadOutlined from "@mui/icons-material/FileDownloadOutlined";
import FileUploadOutlined from "@mui/icons-material/FileUploadOutlined";
import Button from "@mui/material/Button";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ResourceDef } from "@workmetrics/domain/resources/types";
import { useState } from "react";
import { countLabel } from "./hooks.ts";

// What an export carries: the columns the list shows, or every field the import takes (a file that round-trips).
export type ExportKind = "shown" | "all";

type Props = {
  def: ResourceDef;
  total: number | null;
  selectedCount: number;
  exporting: boolean;
  canCreate: boolean;
  canImport?: boolean; // default: who may create
  onCreate(): void;
  onImport(): void;
  onExport(kind: ExportKind): void;
  onDelete(): void;
};

// Title with the exact total, and the list's actions: new, import, export, delete the selection.
export function ListHeader(props: Props) {
  const { def, total, selectedCount, exporting, canCreate, onCreate, onImport, onExport, onDelete } = props;
  const canImport = props.canImport ?? canCreate;
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const pick = (kind: ExportKind) => {
    setMenu(null);
    onExport(kind);
  };
  return (
    <Stack
      direction={{ xs: "column", sm: "row" }}
      spacing={1}
      sx={{ alignItems: { sm: "center" }, justifyContent: "space-between" }}
    >
      <div>
        <Typography variant="h5" component="h1">
          {def.plural}
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid="list-total" aria-live="polite">
          {total === null ? "\u00a0" : countLabel(def, total)}
        </Typography>
      </div>
      <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap", gap: 1 }} useFlexGap>
        {selectedCount > 0 && (
          <Button color="error" variant="outlined" startIcon={<DeleteOutlined />} onClick={onDelete}>
            Delete {selectedCount} selected
          </Button>
        )}
        {canImport && (
          <Button variant="outlined" startIcon={<FileUploadOutlined />} onClick={onImport}>
            Import CSV
          </Button>
        )}
        <Button
          variant="outlined"
          startIcon={<FileDownloadOutlined />}
          onClick={(e) => setMenu(e.currentTarget)}
          loading={exporting}
          aria-haspopup="menu"
          aria-expanded={menu ? "true" : undefined}
        >
          Export CSV
        </Button>
        <Menu anchorEl={menu} open={menu !== null} onClose={() => setMenu(null)}>
          <MenuItem onClick={() => pick("shown")}>
            <ListItemText primary="Columns shown" secondary="What the list shows, as it shows it" />
          </MenuItem>
          <MenuItem onClick={() => pick("all")}>
            <ListItemText primary="All fields" secondary="Every field the import takes: edit and import it back" />
          </MenuItem>
        </Menu>
        {canCreate && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={onCreate}>
            New {def.title.toLowerCase()}
          </Button>
        )}
      </Stack>
    </Stack>
  );
}
