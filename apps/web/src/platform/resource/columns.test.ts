import { describe, expect, it } from "vitest";
import { buildColumns, defaultVisibility } from "./columns.tsx";
import { resourceByName } from "./definition.ts";
import { resourcePaths } from "./paths.ts";

// At 1280 px the list has about 990 px beside the navigation: the default columns fit, Total included.
const ROOM = 980;

function shown(name: string) {
  const def = resourceByName(name);
  const visible = defaultVisibility(def);
  const cols = buildColumns(def, resourcePaths("/d", def.route ?? name)).filter((c) => visible[c.field] !== false);
  const width = cols.reduce((s, c) => s + (c.flex ? (c.minWidth ?? 0) : (c.width ?? 0)), 0);
  return { fields: cols.map((c) => c.field), width };
}

describe("a document list's default columns at 1280 px", () => {
  it.each(["sales_order", "quotation", "invoice", "delivery_order"])("%s fits with its Total", (name) => {
    const { fields, width } = shown(name);
    expect(fields).toEqual(expect.arrayContaining(["number", "status", "doc_date", "company_id", "total"]));
    expect(width).toBeLessThanOrEqual(ROOM);
  });
});
