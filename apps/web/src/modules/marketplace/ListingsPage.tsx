import Alert from "@mui/material/Alert";
import Autocomplete from "@mui/material/Autocomplete";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { decide } from "@workmetrics/domain";
import type { MarketplaceListingView } from "@workmetrics/domain/commands/marketplace";
import { MARKETPLACE_ACCESS } from "@workmetrics/domain/resources/marketplace";
import { useState } from "react";
import toast from "react-hot-toast";
import { Link as RouterLink } from "react-router";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { useMarketplaceCommand, useMyAccount, useSearch } from "./api.ts";
import { PhotoManager } from "./photos.tsx";
import { Empty, Failed, Loading, money, Section, StockChip, why } from "./ui.tsx";

// Issue 23 "/dashboard/marketplace-product": the workspace's listings — a product of the catalogue published with a
// marketplace price (and a bulk tier), minimum order, lead time and stock shown as in / low / out (the figure only if
// the seller chooses). A listing is a snapshot: editing the product later changes none of it.

const wide = { display: { xs: "none", md: "table-cell" } };

export default function ListingsPage() {
  usePageTitle("Listings");
  const base = useDashboardBase();
  const { member } = useViewer();
  const may = decide(member, MARKETPLACE_ACCESS.sell).allowed;
  const account = useMyAccount();
  const mine = useSearch({ mine: true, limit: 200 });
  const [editing, setEditing] = useState<MarketplaceListingView | "new" | null>(null);
  const rows = mine.data?.rows ?? [];
  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          Listings
        </Typography>
        {may && account.data && (
          <Button variant="contained" onClick={() => setEditing("new")}>
            List a product
          </Button>
        )}
      </Stack>
      {account.isSuccess && !account.data && (
        <Alert
          severity="info"
          action={
            <Button component={RouterLink} to={`${base}/marketplace-account`}>
              Open profile
            </Button>
          }
        >
          Open your seller profile first: buyers see it beside every listing.
        </Alert>
      )}
      {account.data && !account.data.published && (
        <Alert severity="warning">Your seller profile is not published: buyers see none of these listings.</Alert>
      )}
      <Section id="listings" title="Your listings">
        {mine.isPending ? (
          <Loading label="Loading listings" />
        ) : mine.isError ? (
          <Failed error={mine.error} />
        ) : rows.length === 0 ? (
          <Empty>No listings yet.</Empty>
        ) : (
          <TableContainer>
            <Table size="small" aria-label="Your listings">
              <TableHead>
                <TableRow>
                  <TableCell>Title</TableCell>
                  <TableCell align="right">Price</TableCell>
                  <TableCell sx={wide}>Min. order</TableCell>
                  <TableCell sx={wide}>Lead time</TableCell>
                  <TableCell>Stock</TableCell>
                  <TableCell>Published</TableCell>
                  {may && <TableCell />}
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((l) => (
                  <TableRow key={l.id}>
                    <TableCell>{l.title}</TableCell>
                    <TableCell align="right">{money(l.price)}</TableCell>
                    <TableCell sx={wide}>{Number(l.moq)}</TableCell>
                    <TableCell sx={wide}>{l.lead_time_days} d</TableCell>
                    <TableCell>
                      <StockChip level={l.stock_level} qty={l.stock_qty} />
                    </TableCell>
                    <TableCell>{l.published ? "Yes" : "No"}</TableCell>
                    {may && (
                      <TableCell>
                        <Button size="small" onClick={() => setEditing(l)}>
                          Edit
                        </Button>
                      </TableCell>
                    )}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </Section>
      {editing && <ListingDialog listing={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}

type ProductOption = { id: number; name: string; sku: string; price: string };

function useProducts(q: string) {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["marketplace", "products", q],
    queryFn: async ({ signal }) =>
      (
        await data.getList("product", {
          select: "id,name,sku,price",
          filters: [
            { column: "active", op: "eq", value: "true" },
            ...(q
              ? [{ or: `name.ilike.*${q.replace(/[,()*]/g, " ")}*,sku.ilike.*${q.replace(/[,()*]/g, " ")}*` }]
              : []),
          ],
          order: [{ column: "name", ascending: true }],
          range: [0, 19],
          signal,
        })
      ).data as unknown as ProductOption[],
  });
}

function ListingDialog({ listing, onClose }: { listing: MarketplaceListingView | null; onClose: () => void }) {
  const save = useMarketplaceCommand("marketplace_listing_save");
  const [q, setQ] = useState("");
  const products = useProducts(q);
  const [product, setProduct] = useState<ProductOption | null>(null);
  const tier = listing?.price_tiers[0];
  const [f, setF] = useState({
    title: listing?.title ?? "",
    description: listing?.description ?? "",
    category: listing?.category ?? "",
    price: listing?.price ?? "",
    moq: listing?.moq ?? "1",
    lead: String(listing?.lead_time_days ?? 1),
    tierQty: tier?.min_qty ?? "",
    tierPrice: tier?.price ?? "",
    show_stock: listing?.show_stock ?? false,
    published: listing?.published ?? true,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  const productId = listing ? Number(listing.product_id) : product?.id;
  const submit = async () => {
    if (!productId) return;
    try {
      await save.mutateAsync({
        ...(listing ? { id: Number(listing.id) } : {}),
        product_id: productId,
        title: f.title,
        description: f.description || null,
        category: f.category || null,
        price: f.price,
        moq: f.moq,
        lead_time_days: Number(f.lead) || 0,
        price_tiers: f.tierQty && f.tierPrice ? [{ min_qty: f.tierQty, price: f.tierPrice }] : [],
        show_stock: f.show_stock,
        published: f.published,
      });
      toast.success(f.published ? `${f.title} is listed` : `${f.title} is saved, not published`);
      onClose();
    } catch (err) {
      setErrors((err as { fields?: Record<string, string> }).fields ?? {});
      toast.error(why(err));
    }
  };
  const field = (k: keyof typeof f, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      value={f[k] as string}
      onChange={set(k)}
      error={Boolean(errors[k === "lead" ? "lead_time_days" : k])}
      helperText={errors[k === "lead" ? "lead_time_days" : k] ?? (extra.helperText as string | undefined)}
      fullWidth
      size="small"
      {...extra}
    />
  );
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="listing-title">
      <DialogTitle id="listing-title">{listing ? `Edit ${listing.title}` : "List a product"}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          {!listing && (
            <Autocomplete
              options={products.data ?? []}
              loading={products.isFetching}
              getOptionLabel={(p) => `${p.name} (${p.sku})`}
              filterOptions={(x) => x}
              value={product}
              onChange={(_, p) => {
                setProduct(p);
                if (p) setF((v) => ({ ...v, title: v.title || p.name, price: v.price || p.price }));
              }}
              onInputChange={(_, v) => setQ(v)}
              renderInput={(params) => <TextField {...params} label="Product from your catalogue" size="small" />}
            />
          )}
          {field("title", "Title buyers see")}
          {field("description", "Description", { multiline: true, minRows: 2 })}
          {field("category", "Category")}
          <Stack direction="row" spacing={1}>
            {field("price", "Marketplace price (SGD)", { inputMode: "decimal" })}
            {field("moq", "Minimum order qty", { inputMode: "decimal" })}
            {field("lead", "Lead time (days)", { inputMode: "numeric" })}
          </Stack>
          <Stack direction="row" spacing={1}>
            {field("tierQty", "Bulk price from qty", { inputMode: "decimal", helperText: "Optional" })}
            {field("tierPrice", "Bulk price (SGD)", { inputMode: "decimal" })}
          </Stack>
          <FormControlLabel
            control={<Switch checked={f.show_stock} onChange={(e) => setF({ ...f, show_stock: e.target.checked })} />}
            label="Show buyers the exact stock figure (otherwise in / low / out)"
          />
          <FormControlLabel
            control={<Switch checked={f.published} onChange={(e) => setF({ ...f, published: e.target.checked })} />}
            label="Published"
          />
          {listing ? (
            <PhotoManager listing={listing} />
          ) : (
            <Typography variant="body2" color="text.secondary">
              Save the listing, then edit it to add photos.
            </Typography>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={!productId || !f.title.trim() || !f.price || save.isPending}
          onClick={submit}
        >
          {save.isPending ? "Saving…" : "Save"}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
