import Chip from "@mui/material/Chip";
import Tooltip from "@mui/material/Tooltip";
import { useQuery } from "@tanstack/react-query";
import { Link as RouterLink } from "react-router";
import { type Row, useDataProvider } from "../../platform/data-access/provider.ts";
import { formatDate } from "../../platform/fields/format.ts";
import { useReadable } from "../../platform/resource/access.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";
import { resourcePaths, useDashboardBase } from "../../platform/resource/paths.ts";

// A purchase order line priced by a supplier's confirmed discount names the form (issue 11: "a confirmed discount
// prices new POs automatically and shows on the PO line"): a chip under the price, linking to the form, for whoever
// reads the forms (Premium; the line keeps the form's id either way).

const RESOURCE = "supplier_discount_form";

export function useDiscountForms(ids: readonly number[]) {
  const data = useDataProvider();
  const readable = useReadable()(RESOURCE);
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  return useQuery({
    queryKey: [RESOURCE, "list", "priced-by", unique.join(",")],
    queryFn: async ({ signal }) =>
      new Map(
        (
          await data.getList(RESOURCE, {
            select: "id,discount_kind,discount_percent,valid_to",
            filters: [{ column: "id", op: "in", value: `(${unique.join(",")})` }],
            signal,
          })
        ).data.map((r) => [Number(r.id), r]),
      ),
    enabled: readable && unique.length > 0,
    staleTime: 60_000,
    retry: retryUnlessClientError,
  });
}

// "8% supplier discount", "Supplier discount price"; just "Supplier discount" while the form is not read (yet).
export const discountLabel = (form: Row | undefined): string =>
  !form
    ? "Supplier discount"
    : form.discount_kind === "percent" && form.discount_percent != null
      ? `${Number(form.discount_percent)}% supplier discount`
      : "Supplier discount price";

export function PricedByChip({ id, form }: { id: number; form: Row | undefined }) {
  const base = useDashboardBase();
  const readable = useReadable()(RESOURCE);
  const label = discountLabel(form);
  const title = `Priced by the supplier's confirmed discount (form #${id}${form?.valid_to ? `, valid to ${formatDate(String(form.valid_to))}` : ""})`;
  return (
    <Tooltip title={title}>
      {readable ? (
        <Chip
          size="small"
          color="success"
          variant="outlined"
          label={label}
          clickable
          component={RouterLink}
          to={resourcePaths(base, "supplier-discount-forms").show(String(id))}
          sx={{ mt: 0.5 }}
          data-testid="priced-by"
        />
      ) : (
        <Chip size="small" color="success" variant="outlined" label={label} sx={{ mt: 0.5 }} data-testid="priced-by" />
      )}
    </Tooltip>
  );
}
