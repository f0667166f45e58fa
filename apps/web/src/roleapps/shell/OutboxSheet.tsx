import ErrorOutline from "@mui/icons-material/ErrorOutlineOutlined";
import ScheduleOutlined from "@mui/icons-material/ScheduleOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Drawer from "@mui/material/Drawer";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { formatDateTime } from "../../platform/fields/format.ts";
import { useOnline } from "./online.ts";
import { type OutboxEntry, useOutbox } from "./outbox.ts";

// The outbox sheet (issue 22 "Offline"): what waits to be sent, in the order it will be, and what the server refused
// on replay, with its reason — kept here until the person has read it, and reported to a manager.
export function OutboxSheet({ open, onClose }: { open: boolean; onClose(): void }) {
  const { pending, conflicts, sending, retryNow, dismiss } = useOutbox();
  const online = useOnline();
  return (
    <Drawer
      anchor="bottom"
      open={open}
      onClose={onClose}
      slotProps={{ paper: { sx: { maxHeight: "85dvh", borderTopLeftRadius: 16, borderTopRightRadius: 16 } } }}
    >
      <Box role="dialog" aria-labelledby="outbox-title" sx={{ p: 2, pb: "calc(16px + env(safe-area-inset-bottom))" }}>
        <Stack direction="row" sx={{ alignItems: "center", mb: 1 }}>
          <Typography id="outbox-title" variant="h6" component="h2" sx={{ flex: 1 }}>
            Outbox
          </Typography>
          <Button onClick={onClose} sx={{ minHeight: 48 }}>
            Close
          </Button>
        </Stack>
        {pending.length === 0 && conflicts.length === 0 && (
          <Typography color="text.secondary" sx={{ py: 2 }}>
            Everything you did has reached the server.
          </Typography>
        )}
        {pending.length > 0 && (
          <>
            <Stack direction="row" sx={{ alignItems: "center", mt: 1 }}>
              <Typography variant="subtitle1" component="h3" sx={{ flex: 1, fontWeight: 600 }}>
                Waiting to send ({pending.length})
              </Typography>
              <Button
                variant="outlined"
                onClick={retryNow}
                disabled={!online || sending !== null}
                sx={{ minHeight: 44 }}
              >
                {sending ? "Sending…" : "Send now"}
              </Button>
            </Stack>
            {!online && (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                You are offline. These are sent, in this order and once each, when the network is back.
              </Typography>
            )}
            <List dense aria-label="Waiting to send">
              {pending.map((e) => (
                <ListItem key={e.key} divider>
                  <ListItemIcon sx={{ minWidth: 36 }}>
                    <ScheduleOutlined color="action" />
                  </ListItemIcon>
                  <ListItemText
                    primary={e.label}
                    secondary={`${formatDateTime(e.createdAt)}${e.key === sending ? " · sending…" : e.attempts ? ` · tried ${e.attempts}×${e.lastError ? `: ${e.lastError}` : ""}` : ""}`}
                  />
                </ListItem>
              ))}
            </List>
          </>
        )}
        {conflicts.length > 0 && (
          <>
            <Typography variant="subtitle1" component="h3" sx={{ mt: 2, fontWeight: 600 }}>
              Refused by the server ({conflicts.length})
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              These did not happen. Redo them if they still apply; a manager sees them too.
            </Typography>
            <List dense aria-label="Refused by the server">
              {conflicts.map((e) => (
                <ConflictItem key={e.key} entry={e} onDismiss={() => dismiss(e.key)} />
              ))}
            </List>
          </>
        )}
      </Box>
    </Drawer>
  );
}

function ConflictItem({ entry, onDismiss }: { entry: OutboxEntry; onDismiss(): Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <ListItem divider sx={{ display: "block", py: 1 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: "flex-start" }}>
        <ErrorOutline color="error" sx={{ mt: 0.25 }} />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600 }}>{entry.label}</Typography>
          <Typography variant="body2" color="text.secondary">
            {formatDateTime(entry.createdAt)}
          </Typography>
          <Alert severity="error" variant="outlined" sx={{ mt: 0.5, py: 0 }}>
            {entry.conflict?.message ?? "Refused"}
          </Alert>
          <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: "center" }}>
            <Chip
              size="small"
              label={entry.reported ? "A manager has been told" : "Not yet reported (offline)"}
              color={entry.reported ? "default" : "warning"}
            />
            <Box sx={{ flex: 1 }} />
            {confirming ? (
              <>
                <Button onClick={() => setConfirming(false)} sx={{ minHeight: 44 }}>
                  Keep
                </Button>
                <Button color="error" variant="contained" onClick={() => void onDismiss()} sx={{ minHeight: 44 }}>
                  Remove
                </Button>
              </>
            ) : (
              <Button onClick={() => setConfirming(true)} disabled={!entry.reported} sx={{ minHeight: 44 }}>
                Dismiss
              </Button>
            )}
          </Stack>
        </Box>
      </Stack>
    </ListItem>
  );
}
