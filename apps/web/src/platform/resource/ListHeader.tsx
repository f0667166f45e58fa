import AddIcon from "@mui/icons-material/Add";
import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import FileDownloadOutlined from "@mui/icons-material/FileDownloadOutlined";
import FileUploadOutlined from "@mui/icons-material/FileUploadOutlined";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ResourceDef } from "@workmetrics/domain/resources/types";
import { countLabel } from "./hooks.ts";

type Props = {
  def: ResourceDef;
  total: number | null;
  selectedCount: number;
  exporting: boolean;
  canCreate: boolean;
  onCreate(): void;
  onImport(): void;
  onExport(): void;
  onDelete(): void;
};

// Title with the exact total, and the list's actions: new, import, export, delete the selection.
export function ListHeader(props: Props) {
  const { def, total, selectedCount, exporting, canCreate, onCreate, onImport, onExport, onDelete } = props;
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
        {canCreate && (
          <Button variant="outlined" startIcon={<FileUploadOutlined />} onClick={onImport}>
            Import CSV
          </Button>
        )}
        <Button variant="outlined" startIcon={<FileDownloadOutlined />} onClick={onExport} loading={exporting}>
          Export CSV
        </Button>
        {canCreate && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={onCreate}>
            New {def.title.toLowerCase()}
          </Button>
        )}
      </Stack>
    </Stack>
  );
}
