import { DocumentError, dec } from "@workmetrics/domain/documents/decimal";
import { computeTotals, type DocumentDiscount, type TaxCode, toBaseTotals } from "@workmetrics/domain/documents/totals";
import { sql } from "drizzle-orm";
import type { Tx } from "../db/database.ts";
import { invalid } from "./refusals.ts";
import type { Row } from "./store.ts";

// Totals are the server's (DESIGN §2.3: never trusted from a client): the one pure totals function over the lines
// as stored, its figures written on the header and each line.

const given = (v: unknown) => v !== undefined && v !== null && v !== "";

function discountOf(header: Row): DocumentDiscount | null {
  const percent = header.discount_percent;
  const amount = header.discount_amount;
  if (given(percent) && given(amount) && !dec(String(amount)).isZero()) {
    throw invalid("Give the discount as a percent or as an amount, not both", "discount_amount");
  }
  if (given(percent)) return { percent: String(percent) };
  if (given(amount)) return { amount: String(amount) };
  return null;
}

export function priceDraft(header: Row, lines: readonly Row[]): { header: Row; lines: Row[] } {
  try {
    const totals = computeTotals({
      lines: lines.map((l) => ({
        qty: String(l.qty),
        unit_price: String(l.unit_price),
        discount_percent: given(l.discount_percent) ? String(l.discount_percent) : null,
        tax_code: (l.tax_code ?? "SR") as TaxCode,
      })),
      discount: discountOf(header),
    });
    const rate = given(header.rate) ? String(header.rate) : "1";
    return {
      header: {
        ...header,
        rate,
        discount_percent: given(header.discount_percent) ? String(header.discount_percent) : null,
        subtotal: totals.subtotal,
        discount_amount: dec(totals.discount_amount).abs().toFixed(2),
        net_total: totals.net_total,
        tax_total: totals.tax_total,
        total: totals.total,
        base_total: toBaseTotals(totals, rate).base_total,
      },
      lines: lines.map((l, i) => ({
        ...l,
        tax_code: l.tax_code ?? "SR",
        discount_percent: given(l.discount_percent) ? String(l.discount_percent) : "0",
        line_total: totals.lines[i].line_total,
        net_amount: totals.lines[i].net_amount,
      })),
    };
  } catch (err) {
    if (err instanceof DocumentError) throw invalid(err.message);
    throw err;
  }
}

type Item = {
  id: number;
  sku: string | null;
  name: string;
  unit: string;
  price: string;
  cost: string | null;
  tax: string;
};

// Lines snapshot what they sell (Medusa): SKU, name, unit, price and tax code unless the clerk typed them; the cost
// always comes from the product, for the margin check and later the cost of goods sold.
export async function snapshotLines(tx: Tx, ws: string, lines: readonly Row[]): Promise<Row[]> {
  const ids = (key: string) => [
    ...new Set(
      lines
        .map((l) => l[key])
        .filter((v) => v != null)
        .map(Number),
    ),
  ];
  const productIds = ids("product_id");
  const serviceIds = ids("service_id");
  const products = new Map<number, Item>();
  const services = new Map<number, Item>();
  if (productIds.length) {
    const res = await tx.execute(sql`select id, sku, name, unit, price::text as price, cost::text as cost,
      tax_code as tax from product where workspace_id = ${ws}::uuid and id = any(${`{${productIds.join(",")}}`}::bigint[])`);
    for (const p of res.rows as Item[]) products.set(Number(p.id), p);
  }
  if (serviceIds.length) {
    const res = await tx.execute(sql`select id, code as sku, name, unit, price::text as price, null as cost,
      tax_code as tax from service where workspace_id = ${ws}::uuid and id = any(${`{${serviceIds.join(",")}}`}::bigint[])`);
    for (const s of res.rows as Item[]) services.set(Number(s.id), s);
  }
  return lines.map((line, i) => {
    const n = i + 1;
    if (line.product_id != null && line.service_id != null) {
      throw invalid(`Line ${n} sells a product or a service, not both`, `lines.${i}.service_id`);
    }
    const item =
      line.product_id != null
        ? products.get(Number(line.product_id))
        : line.service_id != null
          ? services.get(Number(line.service_id))
          : null;
    if ((line.product_id != null || line.service_id != null) && !item) {
      const what = line.product_id != null ? "product" : "service";
      throw invalid(`Line ${n}: there is no such ${what} in this workspace`, `lines.${i}.${what}_id`);
    }
    const out: Row = {
      ...line,
      sku: line.sku ?? item?.sku ?? null,
      description: given(line.description) ? line.description : (item?.name ?? null),
      unit: line.unit ?? item?.unit ?? null,
      unit_price: given(line.unit_price) ? line.unit_price : (item?.price ?? null),
      tax_code: line.tax_code ?? item?.tax ?? "SR",
      unit_cost: item?.cost ?? null,
    };
    if (!given(out.qty)) throw invalid(`Give a quantity on line ${n}`, `lines.${i}.qty`);
    if (!given(out.description)) throw invalid(`Describe line ${n}, or choose a product`, `lines.${i}.description`);
    if (!given(out.unit_price)) throw invalid(`Give a unit price on line ${n}`, `lines.${i}.unit_price`);
    return out;
  });
}

// DESIGN "Minimum margin rate 0": the first line priced below its cost after its discount, or null.
export function belowCost(lines: readonly Row[]): { n: number; cost: string } | null {
  for (const [i, l] of lines.entries()) {
    if (!given(l.unit_cost)) continue;
    const cost = dec(String(l.unit_cost));
    if (!cost.greaterThan(0)) continue;
    const off = given(l.discount_percent) ? dec(String(l.discount_percent)) : dec("0");
    const net = dec(String(l.unit_price)).times(dec("100").minus(off)).dividedBy(100);
    if (net.lessThan(cost)) return { n: i + 1, cost: cost.toFixed(2) };
  }
  return null;
}
