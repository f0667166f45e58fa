import ChevronRight from "@mui/icons-material/ChevronRight";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardActionArea from "@mui/material/CardActionArea";
import Chip from "@mui/material/Chip";
import LinearProgress from "@mui/material/LinearProgress";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import toast from "react-hot-toast";
import { Link, useNavigate } from "react-router";
import { formatSpelledDate } from "../../platform/fields/format.ts";
import { runOrQueue } from "../shell/outbox.ts";
import { type ToPick, useLocations, usePickLists, useRefreshAfterReplay, useToPick } from "./data.ts";
import { Empty, LoadError, Loading, OfflineNote, PageHead } from "./widgets.tsx";

const SOURCE = { sales_order: "Sales order", delivery_instruction: "Delivery instruction" } as const;

// Pick (issue 22): the pick lists being picked, and the sales orders and released delivery instructions a new one
// can be made from.
export function PickPage() {
  useRefreshAfterReplay();
  const picking = usePickLists();
  const toPick = useToPick();
  const navigate = useNavigate();
  const [making, setMaking] = useState<string | null>(null);
  const locations = useLocations();
  // Where this storekeeper picks from (kept on the phone): the pick list's lines take their bins there.
  const [from, setFromState] = useState<number | null>(
    () => Number(localStorage.getItem("warehouse-pick-from")) || null,
  );
  const setFrom = (id: number | null) => {
    setFromState(id);
    if (id) localStorage.setItem("warehouse-pick-from", String(id));
  };
  const pickFrom = from ?? locations.data?.[0]?.id ?? null;

  const make = async (s: ToPick) => {
    setMaking(`${s.type}:${s.id}`);
    try {
      const res = await runOrQueue(
        "pick_list_make",
        { source_type: s.type, source_id: s.id, ...(pickFrom ? { location_id: pickFrom } : {}) },
        { label: `Pick list for ${s.number ?? SOURCE[s.type].toLowerCase()}` },
      );
      if (res.status === "refused") toast.error(res.message);
      else if (res.status === "queued") toast.success("Saved on this phone — the pick list is made when online");
      else {
        toast.success(`Pick list ${res.result.number ?? ""} made`);
        await Promise.all([picking.refetch(), toPick.refetch()]);
        navigate(`/dashboard/pick/${res.result.id}`);
      }
    } finally {
      setMaking(null);
    }
  };

  return (
    <Box>
      <PageHead title="Pick" sub="Pick lists in walking order" />
      <OfflineNote isOffline={picking.isOffline} savedAt={picking.savedAt} what="the pick lists" />
      {picking.isPending ? (
        <Loading label="Loading the pick lists" />
      ) : picking.error && !picking.data ? (
        <LoadError error={picking.error} retry={() => void picking.refetch()} />
      ) : picking.lists.length === 0 ? (
        <Empty title="No pick list open">Make one from an order below.</Empty>
      ) : (
        <Stack spacing={1.25}>
          {picking.lists.map((pl) => {
            const total = pl.lines.reduce((n, l) => n + Number(l.qty), 0);
            const done = pl.lines.reduce((n, l) => n + Math.min(Number(l.qty_picked), Number(l.qty)), 0);
            return (
              <Card key={pl.id} variant="outlined">
                <CardActionArea component={Link} to={`/dashboard/pick/${pl.id}`} sx={{ p: 1.75, minHeight: 72 }}>
                  <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                    <Box sx={{ flex: 1, minWidth: 0 }}>
                      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                        <Typography sx={{ fontWeight: 600 }}>{pl.number}</Typography>
                        {pl.pending.length > 0 && (
                          <Chip size="small" color="warning" label={`${pl.pending.length} pending`} />
                        )}
                      </Stack>
                      <Typography noWrap>{pl.company ?? ""}</Typography>
                      <Typography variant="body2" color="text.secondary">
                        {pl.lines.length} line{pl.lines.length === 1 ? "" : "s"} · {done} of {total} picked
                      </Typography>
                      <LinearProgress
                        variant="determinate"
                        value={total ? (100 * done) / total : 0}
                        sx={{ mt: 0.75, height: 6, borderRadius: 3 }}
                      />
                    </Box>
                    <ChevronRight color="action" />
                  </Stack>
                </CardActionArea>
              </Card>
            );
          })}
        </Stack>
      )}
      <Typography variant="subtitle1" component="h2" sx={{ mt: 3, mb: 1, fontWeight: 600 }}>
        Orders to pick
      </Typography>
      {(locations.data ?? []).length > 0 && (
        <TextField
          select
          fullWidth
          label="Pick from"
          value={pickFrom ?? ""}
          onChange={(e) => setFrom(Number(e.target.value) || null)}
          sx={{ mb: 1.5 }}
        >
          {(locations.data ?? []).map((l) => (
            <MenuItem key={l.id} value={l.id} sx={{ minHeight: 48 }}>
              {l.name} ({l.code})
            </MenuItem>
          ))}
        </TextField>
      )}
      {toPick.isPending ? (
        <Loading label="Loading the orders to pick" />
      ) : toPick.error && !toPick.data ? (
        <LoadError error={toPick.error} retry={() => void toPick.refetch()} />
      ) : (toPick.data ?? []).length === 0 ? (
        <Empty title="Nothing to pick">No open sales order or released delivery instruction waits for goods.</Empty>
      ) : (
        <Stack spacing={1}>
          {(toPick.data ?? []).map((s) => (
            <Card key={`${s.type}:${s.id}`} variant="outlined" sx={{ p: 1.5 }}>
              <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 600 }}>{s.number}</Typography>
                  <Typography noWrap>{s.company ?? ""}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {SOURCE[s.type]} · {formatSpelledDate(s.doc_date)}
                  </Typography>
                </Box>
                <Button
                  variant="outlined"
                  size="large"
                  sx={{ minHeight: 48 }}
                  disabled={making !== null}
                  onClick={() => void make(s)}
                >
                  {making === `${s.type}:${s.id}` ? "Making…" : "Pick"}
                </Button>
              </Stack>
            </Card>
          ))}
        </Stack>
      )}
    </Box>
  );
}
