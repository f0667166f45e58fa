import PlaceOutlined from "@mui/icons-material/PlaceOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Grid from "@mui/material/Grid";
import Link from "@mui/material/Link";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { FAILURE_REASON_LABELS } from "@workmetrics/domain/commands/driver";
import type { ReactNode } from "react";
import { useSession } from "../../app/session/SessionProvider.tsx";
import type { Row } from "../../platform/data-access/provider.ts";
import { formatDate, formatDateTime } from "../../platform/fields/format.ts";
import { signedUrl } from "../files/files-api.ts";

// The delivery on a delivery order's page (issue 22, DESIGN §2.3.2 "Delivery proof"): its trip (date, stop),
// and once handed over the proof — who received it, their signature, the photos, the device's and the server's
// time, the place with a map link — or why it failed (back to dispatch: assign a driver again).
export default function ProofPanel({ doc }: { doc: Row }) {
  const delivered = Boolean(doc.received_by);
  const failed = Boolean(doc.failure_reason);
  if (!delivered && !failed && !doc.planned_date) return null;
  const photos = Array.isArray(doc.pod_photos) ? (doc.pod_photos as string[]) : [];
  const lat = doc.pod_lat == null ? null : Number(doc.pod_lat);
  const lng = doc.pod_lng == null ? null : Number(doc.pod_lng);
  return (
    <Card variant="outlined" data-testid="delivery-proof">
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ mb: 1 }}>
          {delivered ? "Proof of delivery" : failed ? "Delivery failed" : "Delivery"}
        </Typography>
        {failed && !delivered && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {FAILURE_REASON_LABELS[doc.failure_reason as keyof typeof FAILURE_REASON_LABELS] ??
              String(doc.failure_reason)}
            {doc.failure_note ? ` — ${String(doc.failure_note)}` : ""}
            {doc.failed_at ? ` (reported ${formatDateTime(doc.failed_at)})` : ""}. Assign a driver and a date again to
            send it out.
          </Alert>
        )}
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: delivered ? 5 : 12 }}>
            <Stack spacing={1}>
              {doc.planned_date != null && (
                <Fact label="Planned">
                  {formatDate(doc.planned_date)}
                  {doc.stop_seq != null ? `, stop ${String(doc.stop_seq)}` : ""}
                </Fact>
              )}
              {doc.arrived_at != null && <Fact label="Arrived">{formatDateTime(doc.arrived_at)}</Fact>}
              {delivered && <Fact label="Received by">{String(doc.received_by)}</Fact>}
              {doc.pod_device_time != null && <Fact label="Device time">{formatDateTime(doc.pod_device_time)}</Fact>}
              {doc.pod_server_time != null && <Fact label="Server time">{formatDateTime(doc.pod_server_time)}</Fact>}
              {(delivered || failed) && (
                <Fact label="Place">
                  {lat != null && lng != null ? (
                    <Link
                      href={`https://maps.google.com/?q=${lat},${lng}`}
                      target="_blank"
                      rel="noopener"
                      sx={{ display: "inline-flex", alignItems: "center", gap: 0.5 }}
                    >
                      <PlaceOutlined fontSize="small" />
                      {lat.toFixed(5)}, {lng.toFixed(5)}
                      {doc.pod_accuracy_m != null ? ` (±${Math.round(Number(doc.pod_accuracy_m))} m)` : ""}
                    </Link>
                  ) : (
                    "No GPS fix was given"
                  )}
                </Fact>
              )}
            </Stack>
          </Grid>
          {delivered && (
            <Grid size={{ xs: 12, md: 7 }}>
              <Stack spacing={1.5}>
                {typeof doc.pod_signature === "string" && (
                  <Box>
                    <Typography variant="caption" color="text.secondary">
                      Signature
                    </Typography>
                    <StoredImage
                      path={doc.pod_signature}
                      alt={`Signature of ${String(doc.received_by)}`}
                      height={120}
                    />
                  </Box>
                )}
                {photos.length > 0 && (
                  <Box>
                    <Typography variant="caption" color="text.secondary">
                      Photos
                    </Typography>
                    <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap", rowGap: 1 }}>
                      {photos.map((p, i) => (
                        <StoredImage key={p} path={p} alt={`Delivery photo ${i + 1}`} height={140} link />
                      ))}
                    </Stack>
                  </Box>
                )}
                {!doc.pod_signature && photos.length === 0 && (
                  <Typography variant="body2" color="text.secondary">
                    Marked delivered in the back office: no signature or photos were taken.
                  </Typography>
                )}
              </Stack>
            </Grid>
          )}
        </Grid>
      </CardContent>
    </Card>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack direction="row" spacing={1}>
      <Typography variant="body2" color="text.secondary" sx={{ minWidth: 110 }}>
        {label}
      </Typography>
      <Typography variant="body2" component="div">
        {children}
      </Typography>
    </Stack>
  );
}

// A file of the workspace shown through a short-lived signed link (the files bucket is private).
function StoredImage(props: { path: string; alt: string; height: number; link?: boolean }) {
  const { client } = useSession();
  const url = useQuery({
    queryKey: ["storage", "signed", props.path],
    queryFn: () => {
      if (!client) throw new Error("Not signed in");
      return signedUrl(client, props.path, 600);
    },
    staleTime: 300_000,
    enabled: Boolean(client),
  });
  if (url.isPending) return <Skeleton variant="rectangular" width={props.height * 1.4} height={props.height} />;
  if (url.isError) {
    return (
      <Typography variant="body2" color="text.secondary">
        {url.error instanceof Error ? url.error.message : "The file could not be opened"}
      </Typography>
    );
  }
  const img = (
    <Box
      component="img"
      src={url.data}
      alt={props.alt}
      sx={{
        height: props.height,
        maxWidth: "100%",
        objectFit: "contain",
        bgcolor: "#fff",
        border: 1,
        borderColor: "divider",
        borderRadius: 1,
        display: "block",
      }}
    />
  );
  return props.link ? (
    <Link href={url.data} target="_blank" rel="noopener">
      {img}
    </Link>
  ) : (
    img
  );
}
