import DownloadOutlined from "@mui/icons-material/DownloadOutlined";
import ShareOutlined from "@mui/icons-material/ShareOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { SupabaseClient } from "@supabase/supabase-js";
import { useQuery } from "@tanstack/react-query";
import { formatBytes } from "@workmetrics/domain";
import { formatDateTime } from "../../platform/fields/format.ts";
import { type Entry, messageOf, signedUrl } from "./files-api.ts";

type FileEntry = Extract<Entry, { kind: "file" }>;

export const previewKind = (type: string): "image" | "pdf" | null =>
  type.startsWith("image/") ? "image" : type.split(";")[0] === "application/pdf" ? "pdf" : null;

export const formatDate = (iso: string) => formatDateTime(iso);

// The right aside for one file: the image or PDF itself (through a short-lived signed URL, so no token is put in
// a page URL), then its details and actions.
export function FilePreview(props: {
  client: SupabaseClient;
  scope: string;
  entry: FileEntry;
  onDownload(): void;
  onShare(): void;
}) {
  const { entry } = props;
  const kind = previewKind(entry.type);
  const url = useQuery({
    queryKey: ["files", props.scope, "preview", entry.path, entry.modified],
    queryFn: () => signedUrl(props.client, entry.path, 600),
    enabled: kind !== null,
    staleTime: 300_000,
  });

  return (
    <Stack spacing={2}>
      {kind &&
        (url.isPending ? (
          <Skeleton variant="rounded" height={kind === "pdf" ? 480 : 240} />
        ) : url.isError ? (
          <Alert severity="error">{messageOf(url.error, "Could not load the preview")}</Alert>
        ) : kind === "image" ? (
          <Box
            sx={{
              display: "flex",
              alignItems: "center",
              justifyContent: "center",
              minHeight: 200,
              p: 2,
              borderRadius: 1,
              bgcolor: "action.hover",
            }}
          >
            <Box
              component="img"
              src={url.data}
              alt={entry.name}
              sx={{ display: "block", maxWidth: "100%", maxHeight: 400, objectFit: "contain" }}
            />
          </Box>
        ) : (
          <Box
            component="iframe"
            src={url.data}
            title={`Preview of ${entry.name}`}
            sx={{ width: "100%", height: 520, border: 1, borderColor: "divider", borderRadius: 1 }}
          />
        ))}
      {!kind && <Alert severity="info">No preview for this type of file. Download it to open it.</Alert>}
      <Box component="dl" sx={{ m: 0, display: "grid", gridTemplateColumns: "auto 1fr", columnGap: 2, rowGap: 1 }}>
        {[
          ["Name", entry.name],
          ["Folder", entry.path.includes("/") ? entry.path.slice(0, entry.path.lastIndexOf("/")) : "My files"],
          ["Size", formatBytes(entry.size)],
          ["Type", entry.type.split(";")[0]],
          ["Modified", formatDate(entry.modified)],
        ].map(([k, v]) => (
          <Box key={k} sx={{ display: "contents" }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {k}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: "break-word" }}>
              {v}
            </Typography>
          </Box>
        ))}
      </Box>
      <Stack direction="row" spacing={1}>
        <Button variant="outlined" startIcon={<DownloadOutlined />} onClick={props.onDownload}>
          Download
        </Button>
        <Button variant="outlined" startIcon={<ShareOutlined />} onClick={props.onShare}>
          Share link
        </Button>
      </Stack>
    </Stack>
  );
}
