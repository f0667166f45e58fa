import CloseIcon from "@mui/icons-material/Close";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { Upload } from "./useUploads.ts";

// Files on their way up, each with how far it has got.
export function UploadList({ uploads, onCancel }: { uploads: Upload[]; onCancel(id: number): void }) {
  if (uploads.length === 0) return null;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} aria-label="Uploads in progress" role="region">
      <Stack spacing={1.5}>
        {uploads.map((u) => {
          const percent = Math.round(u.progress * 100);
          return (
            <Stack key={u.id} direction="row" spacing={2} sx={{ alignItems: "center" }}>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Stack direction="row" sx={{ justifyContent: "space-between", mb: 0.5 }}>
                  <Typography variant="body2" noWrap>
                    {u.name}
                  </Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ ml: 2 }}>
                    {percent}%
                  </Typography>
                </Stack>
                <LinearProgress variant="determinate" value={percent} aria-label={`Uploading ${u.name}`} />
              </Box>
              <IconButton size="small" aria-label={`Cancel upload of ${u.name}`} onClick={() => onCancel(u.id)}>
                <CloseIcon fontSize="small" />
              </IconButton>
            </Stack>
          );
        })}
      </Stack>
    </Paper>
  );
}
