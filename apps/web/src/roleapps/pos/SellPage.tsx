import AddOutlined from "@mui/icons-material/AddOutlined";
import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import PercentOutlined from "@mui/icons-material/PercentOutlined";
import RemoveOutlined from "@mui/icons-material/RemoveOutlined";
import Alert from "@mui/material/Alert";
import Autocomplete from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import ButtonBase from "@mui/material/ButtonBase";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { can } from "@workmetrics/domain";
import {
  POS_DISCOUNT_OVERRIDE,
  POS_FAVOURITE_UPDATE,
  POS_STAFF_DISCOUNT_LIMIT,
} from "@workmetrics/domain/commands/pos";
import { useMemo, useState } from "react";
import { useNavigate } from "react-router";
import { useMember } from "../../platform/resource/access.ts";
import { runOrQueue } from "../shell/outbox.ts";
import { BOTTOM_NAV_HEIGHT } from "../shell/RoleAppShell.tsx";
import { ScanField, type ScannedProduct } from "../shell/ScanField.tsx";
import { useWedgeScanner } from "../shell/scan.ts";
import {
  type CartLine,
  inclGst,
  lineTotal,
  sgd,
  useCart,
  useCatalogue,
  useCustomers,
  useFavouriteIds,
  useLocations,
  useOpenSession,
} from "./data.ts";
import { FavouritesDialog } from "./FavouritesDialog.tsx";
import { PayDialog } from "./PayDialog.tsx";

// The sale screen (issue 22): the favourites grid and the scan / search bar add products to the cart; each line's
// quantity goes up and down and takes a discount within what the cashier's role allows; a customer is optional
// (walk-in by default); the total includes GST. Without an open session the counter opens one first.
export function SellPage() {
  const session = useOpenSession();
  if (session.isLoading) return <Loading />;
  if (!session.open && !session.queuedOpen) return <OpenSession onOpened={() => void session.refresh()} />;
  return <SaleScreen sessionId={session.open?.id ?? null} counter={session.open?.location?.name ?? null} />;
}

function Loading() {
  return (
    <Box sx={{ display: "grid", placeItems: "center", py: 8 }} role="status" aria-label="Loading">
      <CircularProgress />
    </Box>
  );
}

function OpenSession({ onOpened }: { onOpened(): void }) {
  const locations = useLocations();
  const [location, setLocation] = useState<number | "">("");
  const [float, setFloat] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const floatOk = /^\d+(\.\d{1,2})?$/.test(float.trim());

  async function open() {
    if (location === "" || !floatOk) return;
    setBusy(true);
    setError(null);
    const name = locations.data?.find((l) => l.id === location)?.name ?? "the counter";
    const res = await runOrQueue(
      "pos_session_open",
      { location_id: location, opening_float: float.trim() },
      { label: `Open the session at ${name} with a float of ${sgd(float.trim())}` },
    );
    setBusy(false);
    if (res.status === "refused") setError(res.message);
    else onOpened();
  }

  return (
    <Card sx={{ maxWidth: 480, mx: "auto" }}>
      <CardContent>
        <Stack spacing={2.5}>
          <div>
            <Typography variant="h5" component="h2" sx={{ fontWeight: 700 }}>
              Open the till
            </Typography>
            <Typography color="text.secondary">Choose your counter and count the float in the drawer.</Typography>
          </div>
          {locations.error && !locations.data ? (
            <Alert severity="error">{(locations.error as Error).message}</Alert>
          ) : null}
          <TextField
            select
            label="Counter"
            value={location}
            onChange={(e) => setLocation(Number(e.target.value))}
            disabled={!locations.data}
            helperText={locations.data?.length === 0 ? "No locations yet: ask an admin to add one" : " "}
          >
            {(locations.data ?? []).map((l) => (
              <MenuItem key={l.id} value={l.id}>
                {l.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Counted float (S$)"
            value={float}
            onChange={(e) => setFloat(e.target.value)}
            inputMode="decimal"
            slotProps={{ htmlInput: { inputMode: "decimal" } }}
            error={float !== "" && !floatOk}
            helperText={float !== "" && !floatOk ? "Give an amount like 150.00" : "The cash in the drawer now"}
          />
          {error && <Alert severity="error">{error}</Alert>}
          <Button
            variant="contained"
            size="large"
            onClick={open}
            disabled={location === "" || !floatOk || busy}
            sx={{ minHeight: 52 }}
          >
            {busy ? "Opening…" : "Open session"}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}

function SaleScreen({ sessionId, counter }: { sessionId: number | null; counter: string | null }) {
  const catalogue = useCatalogue();
  const customers = useCustomers();
  const { cart, totals, add, setQty, setDiscount, setCustomer, clear } = useCart();
  const who = useMember();
  const favouriteIds = useFavouriteIds();
  const canEditFavourites = who.kind === "member" && can(who.permissions, POS_FAVOURITE_UPDATE);
  const [editingFavourites, setEditingFavourites] = useState(false);
  const maxDiscount =
    who.kind === "member" && can(who.permissions, POS_DISCOUNT_OVERRIDE) ? 100 : POS_STAFF_DISCOUNT_LIMIT;
  const [discountFor, setDiscountFor] = useState<CartLine | null>(null);
  const [paying, setPaying] = useState(false);
  const [scanMessage, setScanMessage] = useState<string | null>(null);
  const navigate = useNavigate();
  const products = catalogue.data ?? [];
  // The favourites an owner or admin chose, in their order (a product since retired drops out); none chosen: the
  // first twelve of the catalogue.
  const chosenFavourites = useMemo(() => {
    const byId = new Map(products.map((p) => [p.id, p]));
    return (favouriteIds.data ?? []).flatMap((id) => byId.get(id) ?? []);
  }, [products, favouriteIds.data]);
  const favourites = chosenFavourites.length ? chosenFavourites : products.slice(0, 12);

  // A keyboard-wedge scanner anywhere on the screen adds the product it reads.
  useWedgeScanner((code) => {
    const q = code.trim().toLowerCase();
    const hit = products.find((p) => p.barcode?.toLowerCase() === q || p.sku.toLowerCase() === q);
    if (hit) {
      add(hit);
      setScanMessage(null);
    } else setScanMessage(`No product has the code ${code}`);
  });

  return (
    <Box
      sx={{
        display: "grid",
        gap: 2,
        gridTemplateColumns: { xs: "1fr", md: "1fr 380px" },
        alignItems: "start",
      }}
    >
      <Stack spacing={2} sx={{ minWidth: 0 }}>
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: "center", flexWrap: "wrap" }}>
          <Chip size="small" label={counter ? `Counter: ${counter}` : "Session opening…"} />
          {catalogue.isOffline && catalogue.savedAt ? (
            <Chip
              size="small"
              color="warning"
              label={`Prices as of ${new Date(catalogue.savedAt).toLocaleTimeString()}`}
            />
          ) : null}
          {canEditFavourites && (
            <Button
              size="small"
              startIcon={<EditOutlined />}
              onClick={() => setEditingFavourites(true)}
              disabled={!catalogue.data || !favouriteIds.data} // edits start from the list saved
              sx={{ ml: "auto", minHeight: 36 }}
            >
              Edit favourites
            </Button>
          )}
        </Stack>
        <ScanField catalogue={products} onProduct={(p) => add(p)} placeholder="Scan, SKU or name" />
        {scanMessage && (
          <Alert severity="warning" onClose={() => setScanMessage(null)}>
            {scanMessage}
          </Alert>
        )}
        {catalogue.isLoading ? (
          <Loading />
        ) : catalogue.error && !catalogue.data ? (
          <Alert severity="error">{(catalogue.error as Error).message}</Alert>
        ) : products.length === 0 ? (
          <Alert severity="info">The catalogue is empty: products added in the back office appear here.</Alert>
        ) : (
          <Box
            sx={{ display: "grid", gap: 1, gridTemplateColumns: { xs: "repeat(3, 1fr)", sm: "repeat(4, 1fr)" } }}
            aria-label="Favourites"
            role="group"
          >
            {favourites.map((p) => (
              <FavouriteTile key={p.id} product={p} onAdd={() => add(p)} />
            ))}
          </Box>
        )}
      </Stack>
      <Paper variant="outlined" sx={{ p: 1.5, position: { md: "sticky" }, top: { md: 80 } }}>
        <Stack spacing={1.5}>
          <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between" }}>
            <Typography variant="h6" component="h2" sx={{ fontWeight: 700 }}>
              Cart
            </Typography>
            {cart.lines.length > 0 && (
              <Button size="small" color="inherit" onClick={clear} startIcon={<DeleteOutlined />}>
                Clear
              </Button>
            )}
          </Stack>
          {cart.lines.length === 0 ? (
            <Typography color="text.secondary" sx={{ py: 2, textAlign: "center" }}>
              Tap a product or scan a barcode to start a sale.
            </Typography>
          ) : (
            <Stack spacing={1} aria-label="Cart lines" role="list">
              {cart.lines.map((l) => (
                <CartRow
                  key={l.product_id}
                  line={l}
                  onQty={(q) => setQty(l.product_id, q)}
                  onDiscount={() => setDiscountFor(l)}
                />
              ))}
            </Stack>
          )}
          <Autocomplete
            options={customers.data ?? []}
            getOptionLabel={(c) => c.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            value={cart.customer}
            onChange={(_e, v) => setCustomer(v)}
            renderInput={(params) => <TextField {...params} label="Customer" placeholder="Walk-in customer" />}
            size="small"
          />
          <Stack direction="row" sx={{ alignItems: "baseline", justifyContent: "space-between" }}>
            <Typography color="text.secondary">GST included</Typography>
            <Typography>{sgd(totals.gst)}</Typography>
          </Stack>
          <Button
            variant="contained"
            size="large"
            disabled={cart.lines.length === 0}
            onClick={() => setPaying(true)}
            sx={{ minHeight: 56, fontSize: 18, fontWeight: 700, display: { xs: "none", md: "inline-flex" } }}
          >
            Charge {sgd(totals.total)}
          </Button>
        </Stack>
      </Paper>
      {/* On a phone the charge button stays in reach of the thumb, above the tabs. */}
      <Box sx={{ display: { xs: "block", md: "none" }, height: 64 }} />
      <Paper
        elevation={6}
        sx={{
          display: { xs: "flex", md: "none" },
          position: "fixed",
          left: 0,
          right: 0,
          bottom: `calc(${BOTTOM_NAV_HEIGHT}px + env(safe-area-inset-bottom))`,
          zIndex: 1099,
          p: 1,
          borderRadius: 0,
        }}
      >
        <Button
          variant="contained"
          size="large"
          fullWidth
          disabled={cart.lines.length === 0}
          onClick={() => setPaying(true)}
          sx={{ minHeight: 52, fontSize: 18, fontWeight: 700 }}
        >
          Charge {sgd(totals.total)}
          {totals.items ? ` · ${totals.items} item${totals.items === 1 ? "" : "s"}` : ""}
        </Button>
      </Paper>
      {discountFor && (
        <DiscountDialog
          line={discountFor}
          max={maxDiscount}
          onClose={() => setDiscountFor(null)}
          onSave={(pct) => {
            setDiscount(discountFor.product_id, pct);
            setDiscountFor(null);
          }}
        />
      )}
      {editingFavourites && (
        <FavouritesDialog catalogue={products} initial={chosenFavourites} onClose={() => setEditingFavourites(false)} />
      )}
      {paying && (
        <PayDialog
          sessionId={sessionId}
          onClose={() => setPaying(false)}
          onDone={(key) => {
            setPaying(false);
            navigate(`/dashboard/receipt/${key}`);
          }}
        />
      )}
    </Box>
  );
}

function FavouriteTile({ product, onAdd }: { product: ScannedProduct; onAdd(): void }) {
  return (
    <ButtonBase
      onClick={onAdd}
      aria-label={`Add ${product.name}, ${sgd(inclGst(product))}`}
      sx={{
        minHeight: 84,
        borderRadius: 2,
        border: 1,
        borderColor: "divider",
        bgcolor: "background.paper",
        p: 1,
        display: "flex",
        flexDirection: "column",
        alignItems: "flex-start",
        justifyContent: "space-between",
        textAlign: "left",
        "&:active": { bgcolor: "action.selected" },
      }}
    >
      <Typography
        variant="body2"
        sx={{
          fontWeight: 600,
          display: "-webkit-box",
          WebkitLineClamp: 2,
          WebkitBoxOrient: "vertical",
          overflow: "hidden",
        }}
      >
        {product.name}
      </Typography>
      <Typography variant="body2" color="primary" sx={{ fontWeight: 700 }}>
        {sgd(inclGst(product))}
      </Typography>
    </ButtonBase>
  );
}

function CartRow({ line, onQty, onDiscount }: { line: CartLine; onQty(q: number): void; onDiscount(): void }) {
  const total = sgd(lineTotal(line).toFixed(2));
  return (
    <Box role="listitem" sx={{ borderBottom: 1, borderColor: "divider", pb: 1 }}>
      <Stack direction="row" spacing={1} sx={{ justifyContent: "space-between" }}>
        <Typography sx={{ fontWeight: 600, minWidth: 0 }} noWrap>
          {line.name}
        </Typography>
        <Typography sx={{ fontWeight: 600 }}>{total}</Typography>
      </Stack>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: "center" }}>
        <IconButton
          aria-label={`One less ${line.name}`}
          onClick={() => onQty(line.qty - 1)}
          sx={{ width: 44, height: 44 }}
        >
          <RemoveOutlined />
        </IconButton>
        <Typography sx={{ minWidth: 28, textAlign: "center" }} aria-label={`Quantity of ${line.name}`}>
          {line.qty}
        </Typography>
        <IconButton
          aria-label={`One more ${line.name}`}
          onClick={() => onQty(line.qty + 1)}
          sx={{ width: 44, height: 44 }}
        >
          <AddOutlined />
        </IconButton>
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
          × {sgd(line.unit_price_incl_gst)}
        </Typography>
        <Button
          size="small"
          onClick={onDiscount}
          startIcon={<PercentOutlined />}
          aria-label={`Discount on ${line.name}`}
          color={line.discount_pct ? "secondary" : "inherit"}
          sx={{ minHeight: 44 }}
        >
          {line.discount_pct ? `−${line.discount_pct}%` : "Disc."}
        </Button>
      </Stack>
    </Box>
  );
}

function DiscountDialog({
  line,
  max,
  onClose,
  onSave,
}: {
  line: CartLine;
  max: number;
  onClose(): void;
  onSave(pct: number): void;
}) {
  const [text, setText] = useState(line.discount_pct ? String(line.discount_pct) : "");
  const pct = text.trim() === "" ? 0 : Number(text);
  const problem =
    !Number.isFinite(pct) || pct < 0
      ? "Give a percentage like 5"
      : pct > max
        ? `You may discount a line by up to ${max}%: ask an admin for more`
        : !/^\d+(\.\d{1,2})?$/.test(text.trim() || "0")
          ? "At most 2 decimals"
          : null;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>Discount on {line.name}</DialogTitle>
      <DialogContent>
        <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap", my: 1 }} useFlexGap>
          {[0, 5, 10, 15, 20]
            .filter((n) => n <= max)
            .map((n) => (
              <Chip key={n} label={n === 0 ? "None" : `${n}%`} onClick={() => setText(n ? String(n) : "")} />
            ))}
        </Stack>
        <TextField
          label="Discount %"
          value={text}
          onChange={(e) => setText(e.target.value)}
          fullWidth
          autoFocus
          slotProps={{ htmlInput: { inputMode: "decimal" } }}
          error={Boolean(problem)}
          helperText={problem ?? `Up to ${max}% for your role`}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" disabled={Boolean(problem)} onClick={() => onSave(pct)}>
          Apply
        </Button>
      </DialogActions>
    </Dialog>
  );
}
