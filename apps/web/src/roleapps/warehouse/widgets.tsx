import Add from "@mui/icons-material/Add";
import Remove from "@mui/icons-material/Remove";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { dec } from "@workmetrics/domain/documents/decimal";
import type { ReactNode } from "react";
import { formatDateTime } from "../../platform/fields/format.ts";

// Small pieces the warehouse app's pages share: big-target quantity steppers, the offline note, loading and empty
// states.

const QTY = /^\d{0,11}(\.\d{0,3})?$/;

const step = (value: string, by: number) => {
  const n = dec(value === "" ? "0" : value).plus(by);
  return n.isNegative() ? "0" : n.toString();
};

// − [quantity] + with 48 px targets; typing takes digits and up to 3 decimals.
export function QtyStepper({
  value,
  onChange,
  label,
  error,
}: {
  value: string;
  onChange(v: string): void;
  label: string;
  error?: boolean;
}) {
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: "center" }}>
      <IconButton
        aria-label={`One less ${label}`}
        onClick={() => onChange(step(value, -1))}
        sx={{ width: 48, height: 48, border: 1, borderColor: "divider" }}
      >
        <Remove />
      </IconButton>
      <TextField
        value={value}
        onChange={(e) => QTY.test(e.target.value) && onChange(e.target.value)}
        error={error}
        slotProps={{
          htmlInput: {
            inputMode: "decimal",
            "aria-label": label,
            style: { textAlign: "center", fontSize: 20, padding: "10px 4px" },
          },
        }}
        sx={{ width: 84 }}
      />
      <IconButton
        aria-label={`One more ${label}`}
        onClick={() => onChange(step(value, 1))}
        color="primary"
        sx={{ width: 48, height: 48, border: 1, borderColor: "primary.main" }}
      >
        <Add />
      </IconButton>
    </Stack>
  );
}

export function OfflineNote({
  isOffline,
  savedAt,
  what,
}: {
  isOffline: boolean;
  savedAt: string | null;
  what: string;
}) {
  if (!isOffline) return null;
  return (
    <Alert severity="warning" sx={{ mb: 1.5 }}>
      Offline — showing {what} as of {savedAt ? formatDateTime(savedAt) : "the last visit"}. What you do now is kept and
      sent when the network is back.
    </Alert>
  );
}

export function Loading({ label }: { label: string }) {
  return (
    <Stack sx={{ alignItems: "center", py: 6 }}>
      <CircularProgress aria-label={label} />
    </Stack>
  );
}

export function LoadError({ error, retry }: { error: unknown; retry(): void }) {
  return (
    <Alert severity="error" action={<Button onClick={retry}>Retry</Button>}>
      {error instanceof Error ? error.message : "This could not be loaded"}
    </Alert>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack spacing={1} sx={{ alignItems: "center", py: 6, textAlign: "center" }}>
      <Typography variant="h6">{title}</Typography>
      {children && <Typography color="text.secondary">{children}</Typography>}
    </Stack>
  );
}

// The page's title row with an optional action on the right.
export function PageHead({ title, sub, action }: { title: string; sub?: ReactNode; action?: ReactNode }) {
  return (
    <Box sx={{ display: "flex", alignItems: "flex-start", justifyContent: "space-between", gap: 1, mb: 1.5 }}>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="h6" component="h1" sx={{ lineHeight: 1.25 }}>
          {title}
        </Typography>
        {sub && (
          <Typography variant="body2" color="text.secondary">
            {sub}
          </Typography>
        )}
      </Box>
      {action}
    </Box>
  );
}

// A photo compressed on the phone to a JPEG at most 1600 px on its longer side (a few hundred KB on a weak signal).
export async function compressPhoto(file: File, maxSide = 1600, quality = 0.8): Promise<string> {
  let source: ImageBitmap | HTMLImageElement;
  try {
    source = await createImageBitmap(file);
  } catch {
    const url = URL.createObjectURL(file);
    try {
      const img = new Image();
      img.src = url;
      await img.decode();
      source = img;
    } catch {
      throw new Error(`${file.name} is not a photo this phone can read`);
    } finally {
      URL.revokeObjectURL(url);
    }
  }
  const scale = Math.min(1, maxSide / Math.max(source.width, source.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(source.width * scale));
  canvas.height = Math.max(1, Math.round(source.height * scale));
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("This browser cannot prepare photos");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(source, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL("image/jpeg", quality);
}
