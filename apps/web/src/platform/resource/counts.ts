import type { ResourceDef } from "@workmetrics/domain/resources/types";
import { formatNumber } from "../fields/format.ts";

// A number with its noun agreeing (issue 9 §2): "1 row", "2 rows", "1,000 good rows".
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

// "1 product", "3 products": the resource's own title and plural, never a guessed "s".
export function countLabel(def: Pick<ResourceDef, "title" | "plural">, n: number): string {
  return plural(n, def.title.toLowerCase(), def.plural.toLowerCase());
}
