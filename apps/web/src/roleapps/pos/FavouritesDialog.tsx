import ArrowDownwardOutlined from "@mui/icons-material/ArrowDownwardOutlined";
import ArrowUpwardOutlined from "@mui/icons-material/ArrowUpwardOutlined";
import CloseOutlined from "@mui/icons-material/CloseOutlined";
import Alert from "@mui/material/Alert";
import Autocomplete from "@mui/material/Autocomplete";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useQueryClient } from "@tanstack/react-query";
import { POS_FAVOURITES_MAX } from "@workmetrics/domain/commands/pos";
import { useState } from "react";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { callCommand } from "../../platform/commands.ts";
import { useOnline } from "../shell/online.ts";
import type { ScannedProduct } from "../shell/ScanField.tsx";
import { FAVOURITES_KEY, inclGst, sgd } from "./data.ts";

// The favourites editor (issue 22), for whoever holds pos_favourite.update (owners and admins): the sale screen's
// tiles in their order — add from the catalogue, move up or down, remove — saved for the whole workspace in one go.
// Every control is a button, so the keyboard orders the list as well as a finger; focus follows the moved product.
export function FavouritesDialog({
  catalogue,
  initial,
  onClose,
}: {
  catalogue: ScannedProduct[];
  initial: ScannedProduct[];
  onClose(): void;
}) {
  const { client } = useSession();
  const qc = useQueryClient();
  const online = useOnline();
  const fullScreen = useMediaQuery("(max-width:600px)");
  const [chosen, setChosen] = useState<ScannedProduct[]>(initial);
  const [adding, setAdding] = useState<ScannedProduct | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const full = chosen.length >= POS_FAVOURITES_MAX;
  const ids = new Set(chosen.map((p) => p.id));

  function focusLater(id: string) {
    requestAnimationFrame(() => document.getElementById(id)?.focus());
  }

  function move(index: number, by: -1 | 1) {
    const to = index + by;
    if (to < 0 || to >= chosen.length) return;
    const next = [...chosen];
    const [p] = next.splice(index, 1);
    next.splice(to, 0, p);
    setChosen(next);
    // At the end of the list the button pressed is disabled: focus goes to the other one.
    const edge = to === 0 || to === next.length - 1;
    focusLater(`fav-${edge ? (by < 0 ? "down" : "up") : by < 0 ? "up" : "down"}-${p.id}`);
  }

  function remove(index: number) {
    const next = chosen.filter((_, i) => i !== index);
    setChosen(next);
    const neighbour = next[Math.min(index, next.length - 1)];
    focusLater(neighbour ? `fav-remove-${neighbour.id}` : "fav-add");
  }

  async function save() {
    if (!client) return;
    setBusy(true);
    setError(null);
    try {
      await callCommand(client, "pos_favourites_set", { product_ids: chosen.map((p) => p.id) });
      await qc.invalidateQueries({ queryKey: ["shift", ...FAVOURITES_KEY] });
      onClose();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="sm" aria-labelledby="fav-title">
      <DialogTitle id="fav-title">Favourites</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 0.5 }}>
          <Typography color="text.secondary">
            The tiles on every counter&apos;s sale screen, in this order (up to {POS_FAVOURITES_MAX}). None chosen: the
            first products of the catalogue.
          </Typography>
          <Autocomplete
            id="fav-add"
            options={catalogue.filter((p) => !ids.has(p.id))}
            getOptionLabel={(p) => `${p.name} · ${p.sku}`}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            value={adding}
            disabled={full}
            onChange={(_e, p) => {
              if (p && !ids.has(p.id)) setChosen([...chosen, p]);
              setAdding(null);
            }}
            renderInput={(params) => (
              <TextField
                {...params}
                label="Add a product"
                placeholder="Name or SKU"
                helperText={full ? `The grid holds ${POS_FAVOURITES_MAX}: remove one to add another` : " "}
              />
            )}
          />
          {chosen.length === 0 ? (
            <Alert severity="info">No favourites chosen: the counter shows the first products of the catalogue.</Alert>
          ) : (
            <Stack component="ol" aria-label="Chosen favourites" spacing={0.5} sx={{ listStyle: "none", p: 0, m: 0 }}>
              {chosen.map((p, i) => (
                <Stack
                  component="li"
                  key={p.id}
                  direction="row"
                  spacing={0.5}
                  sx={{ alignItems: "center", borderBottom: 1, borderColor: "divider", py: 0.25 }}
                >
                  <Typography color="text.secondary" sx={{ width: 24, textAlign: "right", flexShrink: 0 }}>
                    {i + 1}
                  </Typography>
                  <Stack sx={{ flex: 1, minWidth: 0, pl: 1 }}>
                    <Typography noWrap sx={{ fontWeight: 600 }}>
                      {p.name}
                    </Typography>
                    <Typography variant="body2" color="text.secondary" noWrap>
                      {p.sku} · {sgd(inclGst(p))}
                    </Typography>
                  </Stack>
                  <IconButton
                    id={`fav-up-${p.id}`}
                    aria-label={`Move ${p.name} up`}
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                    sx={{ width: 44, height: 44 }}
                  >
                    <ArrowUpwardOutlined />
                  </IconButton>
                  <IconButton
                    id={`fav-down-${p.id}`}
                    aria-label={`Move ${p.name} down`}
                    disabled={i === chosen.length - 1}
                    onClick={() => move(i, 1)}
                    sx={{ width: 44, height: 44 }}
                  >
                    <ArrowDownwardOutlined />
                  </IconButton>
                  <IconButton
                    id={`fav-remove-${p.id}`}
                    aria-label={`Remove ${p.name}`}
                    onClick={() => remove(i)}
                    sx={{ width: 44, height: 44 }}
                  >
                    <CloseOutlined />
                  </IconButton>
                </Stack>
              ))}
            </Stack>
          )}
          {!online && <Alert severity="warning">You are offline: the favourites can be saved once you are back.</Alert>}
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit">
          Cancel
        </Button>
        <Button variant="contained" onClick={save} disabled={busy || !online}>
          {busy ? "Saving…" : "Save favourites"}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
