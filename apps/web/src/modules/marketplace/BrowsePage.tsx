import ShoppingCartOutlined from "@mui/icons-material/ShoppingCartOutlined";
import Badge from "@mui/material/Badge";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardActions from "@mui/material/CardActions";
import CardContent from "@mui/material/CardContent";
import CardMedia from "@mui/material/CardMedia";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Divider from "@mui/material/Divider";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { MarketplaceListingView } from "@workmetrics/domain/commands/marketplace";
import { useState } from "react";
import toast from "react-hot-toast";
import { useNavigate } from "react-router";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { useMarketplaceCommand, useSearch } from "./api.ts";
import { GalleryDialog, ListingPhoto } from "./photos.tsx";
import { Empty, Failed, Loading, money, Stars, StockChip, why } from "./ui.tsx";

// Issue 23 "Browse and buy" (/dashboard/marketplace): every seller's published listings — search by text, category,
// price, lead time; add to a cart that may hold several sellers and is placed as one order per seller; ask a seller
// about a listing (a chat thread).

type CartLine = { listing: MarketplaceListingView; qty: string };

export default function BrowsePage() {
  usePageTitle("Marketplace");
  const navigate = useNavigate();
  const base = useDashboardBase();
  const [q, setQ] = useState("");
  const [category, setCategory] = useState("");
  const [maxPrice, setMaxPrice] = useState("");
  const [lead, setLead] = useState("");
  const [cart, setCart] = useState<CartLine[]>([]);
  const [cartOpen, setCartOpen] = useState(false);
  const [asking, setAsking] = useState<MarketplaceListingView | null>(null);
  const [viewing, setViewing] = useState<MarketplaceListingView | null>(null);
  const search = useSearch({
    ...(q.trim() ? { q: q.trim() } : {}),
    ...(category ? { category } : {}),
    ...(/^\d+(\.\d{1,2})?$/.test(maxPrice) ? { max_price: maxPrice } : {}),
    ...(/^\d+$/.test(lead) ? { max_lead_time_days: Number(lead) } : {}),
    limit: 60,
  });
  const add = (listing: MarketplaceListingView) => {
    setCart((c) =>
      c.some((l) => l.listing.id === listing.id) ? c : [...c, { listing, qty: String(Number(listing.moq) || 1) }],
    );
    toast.success(`${listing.title} added to the cart`);
  };
  const rows = search.data?.rows ?? [];
  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ alignItems: "center", gap: 1 }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          Marketplace
        </Typography>
        <IconButton aria-label={`Cart, ${cart.length} listings`} onClick={() => setCartOpen(true)}>
          <Badge badgeContent={cart.length} color="primary">
            <ShoppingCartOutlined />
          </Badge>
        </IconButton>
      </Stack>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1}>
        <TextField
          label="Search listings or sellers"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          size="small"
          sx={{ flex: 2 }}
        />
        <TextField
          select
          label="Category"
          value={category}
          onChange={(e) => setCategory(e.target.value)}
          size="small"
          sx={{ flex: 1, minWidth: 140 }}
        >
          <MenuItem value="">Any</MenuItem>
          {(search.data?.categories ?? []).map((c) => (
            <MenuItem key={c} value={c}>
              {c}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label="Max price"
          value={maxPrice}
          onChange={(e) => setMaxPrice(e.target.value)}
          size="small"
          inputMode="decimal"
          sx={{ flex: 1 }}
        />
        <TextField
          label="Lead time up to (days)"
          value={lead}
          onChange={(e) => setLead(e.target.value)}
          size="small"
          inputMode="numeric"
          sx={{ flex: 1 }}
        />
      </Stack>
      {search.isPending ? (
        <Loading label="Loading listings" />
      ) : search.isError ? (
        <Failed error={search.error} />
      ) : rows.length === 0 ? (
        <Empty>No listings match. Try fewer words or another category.</Empty>
      ) : (
        <Box
          sx={{
            display: "grid",
            gap: 2,
            gridTemplateColumns: { xs: "1fr", sm: "repeat(2, 1fr)", md: "repeat(3, 1fr)", xl: "repeat(4, 1fr)" },
          }}
        >
          {rows.map((l) => (
            <Card
              key={l.id}
              variant="outlined"
              sx={{ display: "flex", flexDirection: "column" }}
              data-listing={l.title}
            >
              {l.photos.length > 0 ? (
                <Box
                  component="button"
                  type="button"
                  aria-label={`Photos of ${l.title}`}
                  onClick={() => setViewing(l)}
                  sx={{ p: 0, border: 0, bgcolor: "transparent", cursor: "zoom-in", position: "relative" }}
                >
                  <ListingPhoto listingId={Number(l.id)} photo={l.photos[0]} height={120} alt={l.title} />
                  {l.photos.length > 1 && (
                    <Typography
                      variant="caption"
                      sx={{
                        position: "absolute",
                        right: 4,
                        bottom: 4,
                        px: 0.5,
                        borderRadius: 1,
                        bgcolor: "background.paper",
                      }}
                    >
                      {l.photos.length} photos
                    </Typography>
                  )}
                </Box>
              ) : (
                l.photo_url && (
                  <CardMedia component="img" height="120" image={l.photo_url} alt="" sx={{ objectFit: "contain" }} />
                )
              )}
              <CardContent sx={{ flex: 1 }}>
                <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
                  {l.title}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {l.seller_name}
                </Typography>
                <Stars rating={l.seller_rating} count={l.seller_rating_count} />
                <Typography variant="h6" sx={{ mt: 1 }}>
                  {money(l.price)}
                  {l.unit && (
                    <Typography component="span" variant="body2" color="text.secondary">
                      {" "}
                      / {l.unit}
                    </Typography>
                  )}
                </Typography>
                {l.price_tiers.map((t) => (
                  <Typography key={t.min_qty} variant="caption" color="text.secondary" sx={{ display: "block" }}>
                    {money(t.price)} from {Number(t.min_qty)}
                  </Typography>
                ))}
                <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: "wrap", gap: 0.5 }}>
                  <StockChip level={l.stock_level} qty={l.stock_qty} />
                  <Typography variant="caption" color="text.secondary">
                    Min. {Number(l.moq)} · {l.lead_time_days} day{l.lead_time_days === 1 ? "" : "s"} lead time
                  </Typography>
                </Stack>
              </CardContent>
              <CardActions>
                <Button size="small" variant="contained" disabled={l.stock_level === "out"} onClick={() => add(l)}>
                  Add to cart
                </Button>
                <Button size="small" onClick={() => setAsking(l)}>
                  Ask the seller
                </Button>
              </CardActions>
            </Card>
          ))}
        </Box>
      )}
      <CartDialog
        open={cartOpen}
        cart={cart}
        setCart={setCart}
        onClose={() => setCartOpen(false)}
        onPlaced={() => navigate(`${base}/marketplace-sales-order`)}
      />
      <AskDialog listing={asking} onClose={() => setAsking(null)} />
      <GalleryDialog listing={viewing} onClose={() => setViewing(null)} />
    </Stack>
  );
}

function CartDialog(props: {
  open: boolean;
  cart: CartLine[];
  setCart: (f: (c: CartLine[]) => CartLine[]) => void;
  onClose: () => void;
  onPlaced: () => void;
}) {
  const { open, cart, setCart, onClose, onPlaced } = props;
  const place = useMarketplaceCommand("marketplace_order_place");
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const sellers = [...new Set(cart.map((l) => Number(l.listing.account_id)))];
  const placeAll = async () => {
    setBusy(true);
    let placed = 0;
    for (const seller of sellers) {
      const lines = cart.filter((l) => Number(l.listing.account_id) === seller);
      try {
        const o = await place.mutateAsync({
          seller_account_id: seller,
          lines: lines.map((l) => ({ marketplace_product_id: Number(l.listing.id), qty: l.qty })),
          note: note.trim() || null,
        });
        placed += 1;
        toast.success(`Order ${o.number} placed with ${o.seller_name}`);
        setCart((c) => c.filter((l) => Number(l.listing.account_id) !== seller));
      } catch (err) {
        toast.error(`${lines[0].listing.seller_name}: ${why(err)}`);
      }
    }
    setBusy(false);
    if (placed === sellers.length) {
      onClose();
      onPlaced();
    }
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="cart-title">
      <DialogTitle id="cart-title">Cart</DialogTitle>
      <DialogContent>
        {cart.length === 0 ? (
          <Empty>The cart is empty: add listings from the marketplace.</Empty>
        ) : (
          <Stack spacing={2}>
            {sellers.map((seller) => {
              const lines = cart.filter((l) => Number(l.listing.account_id) === seller);
              return (
                <Box key={seller}>
                  <Typography variant="subtitle2">{lines[0].listing.seller_name} — one order</Typography>
                  {lines.map((l) => (
                    <Stack key={l.listing.id} direction="row" spacing={1} sx={{ alignItems: "center", mt: 1 }}>
                      <Typography sx={{ flex: 1 }} variant="body2">
                        {l.listing.title} · {money(l.listing.price)}
                      </Typography>
                      <TextField
                        size="small"
                        label="Qty"
                        value={l.qty}
                        inputMode="decimal"
                        sx={{ width: 90 }}
                        onChange={(e) =>
                          setCart((c) =>
                            c.map((x) => (x.listing.id === l.listing.id ? { ...x, qty: e.target.value } : x)),
                          )
                        }
                      />
                      <Button
                        size="small"
                        color="error"
                        onClick={() => setCart((c) => c.filter((x) => x.listing.id !== l.listing.id))}
                      >
                        Remove
                      </Button>
                    </Stack>
                  ))}
                  <Divider sx={{ mt: 2 }} />
                </Box>
              );
            })}
            <TextField
              label="Note to the sellers"
              value={note}
              onChange={(e) => setNote(e.target.value)}
              multiline
              minRows={2}
            />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
        <Button variant="contained" disabled={!cart.length || busy} onClick={placeAll}>
          {busy ? "Placing…" : sellers.length > 1 ? `Place ${sellers.length} orders` : "Place order"}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function AskDialog({ listing, onClose }: { listing: MarketplaceListingView | null; onClose: () => void }) {
  const send = useMarketplaceCommand("marketplace_message_send");
  const navigate = useNavigate();
  const base = useDashboardBase();
  const [body, setBody] = useState("");
  const submit = async () => {
    if (!listing) return;
    try {
      const m = await send.mutateAsync({ marketplace_product_id: Number(listing.id), body });
      setBody("");
      onClose();
      navigate(`${base}/marketplace-chat?thread=${m.thread_id}`);
    } catch (err) {
      toast.error(why(err));
    }
  };
  return (
    <Dialog open={listing != null} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="ask-title">
      <DialogTitle id="ask-title">
        Ask {listing?.seller_name} about {listing?.title}
      </DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          fullWidth
          multiline
          minRows={3}
          label="Message"
          value={body}
          onChange={(e) => setBody(e.target.value)}
          sx={{ mt: 1 }}
          helperText="A request for a quotation, a delivery date, a question: the seller answers in the chat."
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" disabled={!body.trim() || send.isPending} onClick={submit}>
          Send
        </Button>
      </DialogActions>
    </Dialog>
  );
}
