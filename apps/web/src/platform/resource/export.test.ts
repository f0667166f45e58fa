import { findResource } from "@workmetrics/domain/resources";
import { describe, expect, it } from "vitest";
import type { DataProvider, ListParams, Row } from "../data-access/provider.ts";
import { fetchAll } from "./export.ts";

// A list endpoint over `count` rows that answers at most `cap` rows a request, as the server's MAX_ROWS does.
function cappedProvider(count: number, cap: number): { data: DataProvider; ranges: Array<[number, number]> } {
  const all: Row[] = Array.from({ length: count }, (_, i) => ({ id: i + 1 }));
  const ranges: Array<[number, number]> = [];
  const getList = async (_resource: string, params: ListParams) => {
    const [from, to] = params.range ?? [0, count - 1];
    ranges.push([from, to]);
    const data = all.slice(from, Math.min(to + 1, from + cap));
    return { data, total: params.count ? count : null };
  };
  return { data: { getList } as unknown as DataProvider, ranges };
}

describe("CSV export fetches every row", () => {
  const def = findResource("product");
  if (!def) throw new Error("product is not registered");
  const query = { filters: [], order: [] };

  it("pages by 1000 when the server answers full pages", async () => {
    const { data, ranges } = cappedProvider(2500, 1000);
    const rows = await fetchAll(data, def, query, () => undefined);
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
    expect(ranges).toEqual([
      [0, 999],
      [1000, 1999],
      [2000, 2999],
    ]);
  });

  it("still gets every row, without gaps, when the server caps a page below 1000 (MAX_ROWS)", async () => {
    const { data } = cappedProvider(1234, 300);
    const rows = await fetchAll(data, def, query, () => undefined);
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 1234 }, (_, i) => i + 1));
  });

  it("ends on an empty page when rows were deleted after the count", async () => {
    const { data } = cappedProvider(10, 1000);
    const shrinking: DataProvider = {
      ...data,
      getList: async (resource, params) => {
        const page = await data.getList(resource, params);
        return params.count ? { ...page, total: 20 } : page;
      },
    };
    expect(await fetchAll(shrinking, def, query, () => undefined)).toHaveLength(10);
  });
});
