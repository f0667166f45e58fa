import ChevronRight from "@mui/icons-material/ChevronRight";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardActionArea from "@mui/material/CardActionArea";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { Link } from "react-router";
import { formatSpelledDate } from "../../platform/fields/format.ts";
import { qtyText, useReceiptsDue, useRefreshAfterReplay } from "./data.ts";
import { Empty, LoadError, Loading, OfflineNote, PageHead } from "./widgets.tsx";

// Receive (issue 22): the open purchase orders with goods still to come, late ones first, then by expected date;
// a tap opens one to count what arrived.
export function ReceivePage() {
  useRefreshAfterReplay();
  const due = useReceiptsDue();
  const [search, setSearch] = useState("");
  const q = search.trim().toLowerCase();
  const shown = due.orders.filter(
    (o) =>
      !q ||
      (o.number ?? "").toLowerCase().includes(q) ||
      o.supplier.toLowerCase().includes(q) ||
      o.lines.some((l) => l.description.toLowerCase().includes(q) || (l.sku ?? "").toLowerCase() === q),
  );
  return (
    <Box>
      <PageHead title="Receive" sub="Purchase orders with goods to come" />
      <OfflineNote isOffline={due.isOffline} savedAt={due.savedAt} what="the orders" />
      <TextField
        fullWidth
        placeholder="Find an order, supplier or product"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        slotProps={{ htmlInput: { "aria-label": "Find an order" } }}
        sx={{ mb: 1.5 }}
      />
      {due.isPending ? (
        <Loading label="Loading the orders" />
      ) : due.error && !due.data ? (
        <LoadError error={due.error} retry={() => void due.refetch()} />
      ) : shown.length === 0 ? (
        <Empty title={q ? "No order matches" : "Nothing to receive"}>
          {q ? `No open purchase order matches “${search}”.` : "No purchase order is waiting for goods."}
        </Empty>
      ) : (
        <Stack spacing={1.25}>
          {shown.map((o) => {
            const left = o.lines.filter((l) => Number(l.remaining) > 0);
            const units = left.reduce((n, l) => n + Number(l.remaining), 0);
            return (
              <Card key={o.id} variant="outlined">
                <CardActionArea component={Link} to={`/dashboard/receive/${o.id}`} sx={{ p: 1.75, minHeight: 72 }}>
                  <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                    <Box sx={{ flex: 1, minWidth: 0 }}>
                      <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap" }}>
                        <Typography sx={{ fontWeight: 600 }}>{o.number ?? "Purchase order"}</Typography>
                        {o.overdue && <Chip size="small" color="error" label="Late" />}
                        {o.pending.length > 0 && (
                          <Chip size="small" color="warning" label={`${o.pending.length} pending`} />
                        )}
                      </Stack>
                      <Typography noWrap>{o.supplier}</Typography>
                      <Typography variant="body2" color="text.secondary">
                        {o.expected_date ? `Expected ${formatSpelledDate(o.expected_date)}` : "No expected date"}
                        {o.location ? ` · to ${o.location}` : ""}
                      </Typography>
                      <Typography variant="body2" color="text.secondary">
                        {left.length === 0
                          ? "All received · waiting to be sent"
                          : `${left.length} line${left.length === 1 ? "" : "s"} · ${qtyText(String(units))} to receive`}
                      </Typography>
                    </Box>
                    <ChevronRight color="action" />
                  </Stack>
                </CardActionArea>
              </Card>
            );
          })}
        </Stack>
      )}
    </Box>
  );
}
