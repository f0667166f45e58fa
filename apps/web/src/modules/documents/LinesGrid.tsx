import AddIcon from "@mui/icons-material/Add";
import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import type { Theme } from "@mui/material/styles";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { TAX_CODES, type TaxCode, type Totals } from "@workmetrics/domain/documents/totals";
import type { FieldDef } from "@workmetrics/domain/resources/types";
import { useCallback, useEffect, useRef, useState } from "react";
import { type Row, useDataProvider } from "../../platform/data-access/provider.ts";
import { formatAmount, formatCents, formatNumber } from "../../platform/fields/format.ts";
import { onHandOf, useAvailable, useStockOnHand } from "./api.ts";
import { ItemPicker } from "./ItemPicker.tsx";
import { emptyLine, isBlank, type LineDraft, lineValue } from "./lines.ts";
import { PricedByChip, useDiscountForms } from "./PricedByChip.tsx";
import { RecordField } from "./RecordField.tsx";

// The lines grid (issue 10 §3), filled by keyboard: Alt+N adds a line, Enter moves to the next cell like Tab (and
// from the last cell of the last line opens a new line), picking a product fills its description, unit, price and
// tax code and moves on to the quantity. The picker shows each product's price and stock on hand.

const CELLS = ["product", "description", "qty", "unit_price", "discount_percent", "tax_code"] as const;

type Props = {
  lines: LineDraft[];
  onChange(lines: LineDraft[]): void;
  readOnly: boolean;
  totals: Totals | null;
  currency: string;
  extraFields: readonly FieldDef[];
  errors?: Record<string, string>; // "lines.0.qty" → message, from the server's refusal
  header?: Record<string, unknown>; // a line without its own location shows the header's
  atCost?: boolean; // the workspace's own goods moving (a transfer): a product is valued at its cost, out of GST scope
  buying?: boolean; // a buying document: a picked product's price is left to the server (the supplier's last price)
  services?: boolean; // the picker offers services beside products (not on documents that move goods)
};

// On a phone the description (filled from the product) gives its room to the quantity and price.
const ON_WIDE = { display: { xs: "none", sm: "table-cell" } } as const;
// A type with several columns of its own (a receipt: location, rejected, reason, billed) shows the description only
// on a wide screen, so that its own columns fit beside the product at 1366 px.
const ON_WIDER = { display: { xs: "none", xxl: "table-cell" } } as const;

// Issue 21 §1 (looks): on a phone each line is a card — the product across the top beside its number, then quantity,
// price, discount and tax, the line's own fields, and its total beside the remove button, each under its label — so
// nothing is cut or scrolled out of sight. The same cells as the table's (keyboard order, labels, test ids).
const AS_CARDS = (theme: Theme) => ({
  [theme.breakpoints.down("sm")]: {
    minWidth: 0,
    "& thead": { display: "none" },
    "&, & tbody": { display: "block" },
    "& tbody tr": {
      display: "grid",
      gridTemplateColumns: "repeat(12, minmax(0, 1fr))", // twelfths: the product takes the top row but its number
      columnGap: 1,
      rowGap: 1,
      alignItems: "end",
      border: 1,
      borderColor: "divider",
      borderRadius: 1,
      p: 1.25,
      mb: 1.5,
    },
    "& tbody td": { display: "block", border: 0, p: 0, minWidth: 0, width: "auto", gridColumn: "span 4" },
    "& tbody td[data-label]::before": {
      content: "attr(data-label)",
      display: "block",
      textAlign: "left",
      fontSize: theme.typography.caption.fontSize,
      color: theme.palette.text.secondary,
    },
    "& tbody td[data-cell=no]": { gridArea: "1 / 1", alignSelf: "center", fontWeight: 600 },
    "& tbody td[data-cell=product]": { gridArea: "1 / 2 / 2 / 13" },
    "& tbody td[data-cell=remove]": { gridColumn: "span 2", justifySelf: "end", alignSelf: "center" },
    "& tbody td[data-cell=extra]": { gridColumn: "span 6" },
    "& tbody td[data-cell=total]": { gridColumn: "span 6", fontWeight: 600 },
    "& tbody td[colspan]": { gridColumn: "1 / -1" },
    "& tbody td[data-cell=description]": { display: "none" }, // filled from the product; the card keeps to figures
  },
});

const money = (v: string | undefined, currency: string) => (v === undefined ? "" : formatAmount(v, currency));

// A product as the picker offers it: its selling price on a selling document; on a buying document what it costs us
// (issue 21 §1: the buyer compares what the supplier asks with our cost, not with what we sell at).
function ProductOption({
  row,
  onHand,
  currency,
  buying,
}: {
  row: Row;
  onHand: number | null;
  currency: string;
  buying?: boolean;
}) {
  return (
    <Box sx={{ display: "flex", width: "100%", gap: 2, alignItems: "baseline" }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="body2" noWrap>
          {String(row.name)}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {String(row.sku ?? row.code ?? "")}
        </Typography>
      </Box>
      <Box sx={{ textAlign: "right", flexShrink: 0 }}>
        <Typography variant="body2" sx={{ fontVariantNumeric: "tabular-nums" }}>
          {buying
            ? row.cost == null
              ? ""
              : `cost ${money(String(row.cost), currency)}`
            : money(String(row.price ?? "0"), currency)}
        </Typography>
        <Typography variant="caption" color={onHand !== null && onHand <= 0 ? "error" : "text.secondary"}>
          {row.kind === "service"
            ? `per ${String(row.unit ?? "unit")}`
            : row.is_stock_tracked === false
              ? "not stocked"
              : onHand === null
                ? "stock …"
                : `${formatNumber(onHand)} in stock`}
        </Typography>
      </Box>
    </Box>
  );
}

function ProductCell(props: {
  line: LineDraft;
  index: number;
  currency: string;
  onPick(row: Row | null): void;
  inputRef(el: HTMLInputElement | null): void;
  error?: string;
  atCost?: boolean;
  buying?: boolean;
  services?: boolean;
}) {
  const [ids, setIds] = useState<number[]>([]);
  const stock = useStockOnHand(ids);
  const onOptions = useCallback((rows: Row[]) => setIds(rows.map((r) => Number(r.id))), []);
  const { line } = props;
  const value =
    line.product_id !== null
      ? { id: line.product_id, name: line.product_label ?? `#${line.product_id}`, kind: "product" }
      : line.service_id !== null
        ? { id: line.service_id, name: line.product_label ?? `#${line.service_id}`, kind: "service" }
        : null;
  return (
    <ItemPicker
      label={`Product, line ${props.index + 1}`} // services are offered under their own heading
      productSelect={`id,name,sku,price,unit,tax_code,is_stock_tracked${props.atCost || props.buying ? ",cost" : ""}`}
      services={Boolean(props.services)}
      value={value}
      onChange={props.onPick}
      onOptions={onOptions}
      render={(row) => (
        <ProductOption
          row={row}
          onHand={row.kind === "service" ? null : onHandOf(stock.data, Number(row.id))}
          currency={props.currency}
          buying={props.buying}
        />
      )}
      inputRef={props.inputRef}
      error={props.error}
      testId={`line-${props.index}-product`}
    />
  );
}

export function LinesGrid({
  lines,
  onChange,
  readOnly,
  totals,
  currency,
  extraFields,
  errors = {},
  header,
  atCost,
  buying,
  services,
}: Props) {
  const refs = useRef(new Map<string, HTMLInputElement | null>());
  const data = useDataProvider();
  // The lines as last rendered, for an answer that arrives after the clerk moved on (purchase_prices).
  const current = useRef(lines);
  current.current = lines;
  const [focusNext, setFocusNext] = useState<string | null>(null);
  const stock = useStockOnHand(lines.map((l) => l.product_id).filter((id): id is number => id !== null));
  // Selling documents also say what is available to promise (on hand less what other orders reserve).
  const available = useAvailable(
    lines.map((l) => l.product_id).filter((id): id is number => id !== null),
    !readOnly && !buying && !atCost,
  );
  const forms = useDiscountForms(lines.map((l) => l.discount_form_id).filter((id): id is number => id != null));
  // A line priced by a supplier's confirmed discount says so under its price (until the price is typed over).
  const pricedBy = (l: LineDraft) =>
    l.discount_form_id != null && <PricedByChip id={l.discount_form_id} form={forms.data?.get(l.discount_form_id)} />;

  // After the render that made the cell (and after the picker has finished with its own focus on select).
  useEffect(() => {
    if (!focusNext) return;
    const timer = setTimeout(() => {
      const el = refs.current.get(focusNext);
      if (!el) return;
      el.focus();
      el.select?.();
      setFocusNext(null);
    }, 0);
    return () => clearTimeout(timer);
  });

  const update = (i: number, patch: Partial<LineDraft>) =>
    onChange(lines.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const addLine = () => {
    const line = emptyLine();
    onChange([...lines, line]);
    setFocusNext(`${line.key}:product`);
  };
  const remove = (i: number) => {
    const next = lines.filter((_, j) => j !== i);
    onChange(next);
    const neighbour = next[Math.min(i, next.length - 1)];
    if (neighbour) setFocusNext(`${neighbour.key}:product`);
  };
  // A cell that is there takes the focus at once (keys typed quickly land in order); a new one after its render.
  const focusCell = (key: string) => {
    const el = refs.current.get(key);
    if (!el) return setFocusNext(key);
    el.focus();
    el.select?.();
  };
  const move = (i: number, cell: (typeof CELLS)[number]) => {
    // The next cell shown (a phone hides the description: Enter goes on to the quantity).
    const next = CELLS.slice(CELLS.indexOf(cell) + 1).find((n) => {
      const el = refs.current.get(`${lines[i].key}:${n}`);
      return !el || el.offsetParent !== null;
    });
    if (next) return focusCell(`${lines[i].key}:${next}`);
    if (i < lines.length - 1) return focusCell(`${lines[i + 1].key}:product`);
    addLine();
  };
  const onCellKey = (i: number, cell: (typeof CELLS)[number]) => (e: React.KeyboardEvent) => {
    if (e.key === "Enter" && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      move(i, cell);
    }
  };
  const ref = (key: string, cell: string) => (el: HTMLInputElement | null) => {
    refs.current.set(`${key}:${cell}`, el);
  };

  // Alt+N adds a line from anywhere on the page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reads the current lines when pressed
  useEffect(() => {
    if (readOnly) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey && !e.ctrlKey && !e.metaKey && e.code === "KeyN") {
        e.preventDefault();
        addLine();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [readOnly, lines]);

  const pick = (i: number) => (row: Row | null) => {
    const l = lines[i];
    if (!row) return update(i, { product_id: null, service_id: null, product_label: null });
    const service = row.kind === "service";
    update(i, {
      product_id: service ? null : Number(row.id),
      product_label: String(row.name),
      service_id: service ? Number(row.id) : null,
      discount_form_id: null,
      sku: String((service ? row.code : row.sku) ?? ""),
      description: String(row.name ?? ""),
      unit: String(row.unit ?? ""),
      ...(atCost
        ? { unit_price: String(Number(row.cost ?? 0)), tax_code: "OS" as TaxCode }
        : {
            unit_price: !buying && String(row.price ?? "") ? String(Number(row.price)) : l.unit_price,
            tax_code: (TAX_CODES as readonly string[]).includes(String(row.tax_code))
              ? (row.tax_code as TaxCode)
              : "SR",
          }),
    });
    setFocusNext(`${l.key}:qty`);
    if (buying && !atCost && !service) void priceForPurchase(l.key, Number(row.id));
  };

  // Issue 21 §1: a buying line is priced as its product is picked, as the save will price it (a confirmed supplier
  // discount, the supplier's last price, else our cost), unless the clerk has typed a price meanwhile.
  async function priceForPurchase(key: string, productId: number) {
    const supplier = header?.company_id == null || header.company_id === "" ? null : Number(header.company_id);
    const date = typeof header?.doc_date === "string" && header.doc_date ? header.doc_date : undefined;
    const line = current.current.find((x) => x.key === key);
    try {
      const { prices } = await data.command("purchase_prices", {
        company_id: supplier,
        product_ids: [productId],
        qty: line?.qty.trim() || undefined,
        date,
      });
      const p = prices[0];
      if (!p || p.unit_price == null) return;
      const price = String(Number(p.unit_price));
      const discount = Number(p.discount_percent) ? String(Number(p.discount_percent)) : "";
      onChange(
        current.current.map((x) =>
          x.key === key && x.product_id === productId && (x.unit_price.trim() === "" || x.unit_price === x.auto_price)
            ? {
                ...x,
                unit_price: price,
                auto_price: price,
                discount_percent: discount,
                auto_discount: discount || "0",
                discount_form_id: p.supplier_discount_form_id,
              }
            : x,
        ),
      );
    } catch {
      // Left to the save, which prices the line the same way.
    }
  }

  const err = (i: number, name: string) => errors[`lines.${i}.${name}`];
  const availableOf = (l: LineDraft) => (l.product_id === null ? null : (available.data?.get(l.product_id) ?? null));
  const num = (i: number, l: LineDraft, name: "qty" | "unit_price" | "discount_percent", label: string) => (
    <TextField
      variant="standard"
      size="small"
      fullWidth
      value={l[name]}
      // A price or discount typed over a supplier discount's is the clerk's own: the form no longer prices it.
      onChange={(e) => update(i, { [name]: e.target.value, ...(name !== "qty" && { discount_form_id: null }) })}
      onKeyDown={onCellKey(i, name)}
      inputRef={ref(l.key, name)}
      error={Boolean(err(i, name))}
      helperText={err(i, name)}
      placeholder={
        name === "unit_price" ? (buying ? "Last price" : "Product's") : name === "discount_percent" ? "0" : undefined
      }
      slotProps={{
        htmlInput: { inputMode: "decimal", "aria-label": `${label}, line ${i + 1}`, style: { textAlign: "right" } },
      }}
    />
  );

  const described = extraFields.length > 2 ? ON_WIDER : ON_WIDE;
  return (
    <Box>
      <TableContainer sx={{ overflowX: "auto" }}>
        <Table
          size="small"
          aria-label="Lines"
          sx={[{ minWidth: { sm: readOnly ? 560 : 860 }, "& td, & th": { px: 1 } }, AS_CARDS]}
        >
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 32 }}>#</TableCell>
              <TableCell sx={{ minWidth: { xs: 140, sm: 220 } }}>
                {services ? "Product / service" : "Product"}
              </TableCell>
              <TableCell sx={{ minWidth: 180, ...described }}>Description</TableCell>
              <TableCell align="right" sx={{ width: 90, minWidth: { xs: 64, sm: 80 } }}>
                Qty
              </TableCell>
              <TableCell align="right" sx={{ width: 120, minWidth: { xs: 84, sm: 100 } }}>
                Unit price
              </TableCell>
              <TableCell align="right" sx={{ width: 80, minWidth: 70 }}>
                Disc %
              </TableCell>
              <TableCell sx={{ width: 80, minWidth: 70 }}>Tax</TableCell>
              {extraFields.map((f) => (
                // A quantity (Received, Rejected, Billed) needs a number's room, not a picker's; shown, a picker's
                // value needs less than its field.
                <TableCell
                  key={f.name}
                  align={f.readOnly && f.kind === "number" ? "right" : undefined}
                  sx={{ minWidth: f.kind === "number" ? 80 : readOnly ? 120 : 180 }}
                >
                  {f.label}
                </TableCell>
              ))}
              <TableCell align="right" sx={{ width: 120 }}>
                Line total
              </TableCell>
              {!readOnly && <TableCell sx={{ width: 40 }} />}
            </TableRow>
          </TableHead>
          <TableBody>
            {lines.map((l, i) => {
              const onHand = l.product_id === null ? null : onHandOf(stock.data, l.product_id);
              const lineTotal = totals?.lines.find((_, j) => j === countedIndex(lines, i))?.line_total;
              return (
                <TableRow key={l.key} data-testid={`line-${i}`}>
                  <TableCell data-cell="no">{i + 1}</TableCell>
                  {readOnly ? (
                    <>
                      <TableCell data-cell="product">
                        <Typography variant="body2">{l.product_label ?? "—"}</Typography>
                        <Typography variant="caption" color="text.secondary">
                          {l.sku}
                        </Typography>
                      </TableCell>
                      <TableCell sx={described} data-cell="description">
                        {l.description}
                      </TableCell>
                      <TableCell align="right" data-label="Qty">
                        {formatNumber(l.qty)}
                      </TableCell>
                      <TableCell align="right" data-label="Unit price">
                        {formatCents(l.unit_price, 4)}
                        {pricedBy(l)}
                      </TableCell>
                      <TableCell align="right" data-label="Disc %">
                        {l.discount_percent ? `${l.discount_percent}%` : ""}
                      </TableCell>
                      <TableCell data-label="Tax">{l.tax_code}</TableCell>
                      {extraFields.map((f) => (
                        <TableCell
                          key={f.name}
                          align={f.readOnly && f.kind === "number" ? "right" : undefined}
                          data-label={f.label}
                          data-cell="extra"
                        >
                          <RecordField
                            field={f}
                            value={lineValue(l, f.name, header)}
                            onChange={() => undefined}
                            readOnly
                            dense
                          />
                        </TableCell>
                      ))}
                    </>
                  ) : (
                    <>
                      <TableCell data-cell="product">
                        <ProductCell
                          line={l}
                          index={i}
                          currency={currency}
                          onPick={pick(i)}
                          inputRef={ref(l.key, "product")}
                          error={err(i, "product_id") ?? err(i, "service_id") ?? errors[`lines.${i}`]}
                          atCost={atCost}
                          buying={buying}
                          services={services}
                        />
                        {onHand !== null && (
                          <Typography
                            variant="caption"
                            color={(availableOf(l) ?? onHand) < Number(l.qty || 0) ? "warning.main" : "text.secondary"}
                          >
                            {formatNumber(onHand)} in stock
                            {availableOf(l) !== null && availableOf(l) !== onHand
                              ? ` · ${formatNumber(availableOf(l) ?? 0)} available`
                              : ""}
                          </Typography>
                        )}
                      </TableCell>
                      <TableCell sx={described} data-cell="description">
                        <TextField
                          variant="standard"
                          size="small"
                          fullWidth
                          value={l.description}
                          onChange={(e) => update(i, { description: e.target.value })}
                          onKeyDown={onCellKey(i, "description")}
                          inputRef={ref(l.key, "description")}
                          error={Boolean(err(i, "description"))}
                          helperText={err(i, "description")}
                          slotProps={{ htmlInput: { "aria-label": `Description, line ${i + 1}` } }}
                        />
                      </TableCell>
                      <TableCell align="right" data-label="Qty">
                        {num(i, l, "qty", "Quantity")}
                      </TableCell>
                      <TableCell align="right" data-label="Unit price">
                        {num(i, l, "unit_price", "Unit price")}
                        {pricedBy(l)}
                      </TableCell>
                      <TableCell align="right" data-label="Disc %">
                        {num(i, l, "discount_percent", "Discount %")}
                      </TableCell>
                      <TableCell data-label="Tax">
                        <TextField
                          select
                          variant="standard"
                          size="small"
                          fullWidth
                          value={l.tax_code}
                          onChange={(e) => update(i, { tax_code: e.target.value as TaxCode })}
                          onKeyDown={onCellKey(i, "tax_code")}
                          inputRef={ref(l.key, "tax_code")}
                          error={Boolean(err(i, "tax_code"))}
                          helperText={err(i, "tax_code")}
                          slotProps={{
                            select: { native: true },
                            htmlInput: { "aria-label": `Tax code, line ${i + 1}` },
                          }}
                        >
                          {TAX_CODES.map((c) => (
                            <option key={c} value={c}>
                              {c}
                            </option>
                          ))}
                        </TextField>
                      </TableCell>
                      {extraFields.map((f) => (
                        <TableCell key={f.name} data-label={f.label} data-cell="extra">
                          <RecordField
                            field={{ ...f, label: `${f.label}, line ${i + 1}` }}
                            value={l.extra[f.name]}
                            onChange={(v) => update(i, { extra: { ...l.extra, [f.name]: v } })}
                            dense
                            error={err(i, f.name)}
                          />
                        </TableCell>
                      ))}
                    </>
                  )}
                  <TableCell
                    align="right"
                    data-label="Line total"
                    data-cell="total"
                    sx={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" }}
                  >
                    {lineTotal === undefined ? "" : formatCents(lineTotal)}
                  </TableCell>
                  {!readOnly && (
                    <TableCell data-cell="remove">
                      <Tooltip title="Remove line">
                        <IconButton size="small" aria-label={`Remove line ${i + 1}`} onClick={() => remove(i)}>
                          <DeleteOutlined fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </TableCell>
                  )}
                </TableRow>
              );
            })}
            {lines.length === 0 && (
              <TableRow>
                <TableCell colSpan={9 + extraFields.length}>
                  <Typography color="text.secondary" sx={{ py: 2, textAlign: "center" }}>
                    No lines yet.{readOnly ? "" : " Add one with the button below or Alt+N."}
                  </Typography>
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      {!readOnly && (
        <Box sx={{ display: "flex", alignItems: "center", gap: 2, mt: 1 }}>
          <Button startIcon={<AddIcon />} onClick={addLine} sx={{ flexShrink: 0 }}>
            Add line
          </Button>
          <Typography variant="caption" color="text.secondary">
            Alt+N adds a line · Enter moves to the next cell
          </Typography>
        </Box>
      )}
    </Box>
  );
}

// The index of line i among the lines that count (blank lines are not priced).
function countedIndex(lines: readonly LineDraft[], i: number): number {
  if (isBlank(lines[i])) return -1;
  return lines.slice(0, i).filter((l) => !isBlank(l)).length;
}
