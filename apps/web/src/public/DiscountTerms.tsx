import Box from "@mui/material/Box";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { Dec } from "@workmetrics/domain/documents/decimal";
import { localeFormat, workspaceLocale } from "@workmetrics/domain/locale";
import type { PublicDiscountForm } from "@workmetrics/domain/resources/partners";

// Issue 11: the terms of a supplier discount request in words — the same on the supplier's public page, a supplier
// user's list and the staff's page: what is discounted, by how much, from what quantity, when.

type Terms = Pick<
  PublicDiscountForm,
  "discount_kind" | "discount_percent" | "min_qty" | "valid_from" | "valid_to" | "category" | "products"
> & { currency: string };

const plain = (n: string) => new Dec(n).toString();
// Issue 21 §1: in the workspace's locale (its currency's; en-SG for SGD). A price keeps up to 4 decimals.
const money = (amount: string, currency: string) => {
  const text = localeFormat(workspaceLocale({ baseCurrency: currency })).amount(new Dec(amount).toFixed(), 4);
  return text.startsWith("-") ? `-${currency} ${text.slice(1)}` : `${currency} ${text}`;
};
export const dayText = (iso: string, currency = "SGD") =>
  localeFormat(workspaceLocale({ baseCurrency: currency })).spelledDate(iso.slice(0, 10));

export function discountHeadline(t: Terms): string {
  const what = t.category
    ? `every product in ${t.category}`
    : `${t.products.length} product${t.products.length === 1 ? "" : "s"}`;
  return t.discount_kind === "percent"
    ? `${plain(t.discount_percent ?? "0")}% off ${what}`
    : `Agreed prices for ${what}`;
}

export function DiscountTerms({ terms }: { terms: Terms }) {
  const min = new Dec(terms.min_qty);
  return (
    <Stack spacing={1.5}>
      <Typography variant="h6" component="p" data-testid="discount-headline">
        {discountHeadline(terms)}
      </Typography>
      <Typography color="text.secondary">
        Valid {dayText(terms.valid_from, terms.currency)} to {dayText(terms.valid_to, terms.currency)}
        {min.greaterThan(1) ? ` · from ${plain(terms.min_qty)} units per order line` : ""}
      </Typography>
      {terms.products.length > 0 && (
        <Box component="ul" sx={{ m: 0, p: 0, listStyle: "none" }}>
          {terms.products.map((p) => (
            <Box
              component="li"
              key={p.product_id}
              sx={{ display: "flex", gap: 2, py: 1, borderBottom: 1, borderColor: "divider" }}
            >
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography sx={{ fontWeight: 500 }}>{p.name}</Typography>
                {p.sku && (
                  <Typography variant="body2" color="text.secondary">
                    {p.sku}
                  </Typography>
                )}
              </Box>
              {p.price != null && (
                <Typography sx={{ whiteSpace: "nowrap" }}>
                  {money(p.price, terms.currency)}
                  {p.unit ? ` / ${p.unit}` : ""}
                </Typography>
              )}
            </Box>
          ))}
        </Box>
      )}
    </Stack>
  );
}
