import { describe, expect, it } from "vitest";
import { flatten, matchScore, moveActive, type PaletteItem, rankItems } from "./ranking.ts";

const page = (title: string, extra: Partial<PaletteItem> = {}): PaletteItem => ({
  key: `page:${title}`,
  group: "Pages",
  title,
  to: `/dashboard/${title.toLowerCase().replace(/ /g, "-")}`,
  ...extra,
});

describe("matchScore", () => {
  it("ranks a whole match over a start over a later word over inside a word over letters in order", () => {
    const whole = matchScore("Invoices", "invoices");
    const start = matchScore("Invoices", "inv");
    const word = matchScore("Supplier invoices", "inv");
    const inside = matchScore("Bank accounts", "acc");
    const inOrder = matchScore("Sales orders", "slsord");
    expect(whole).toBeGreaterThan(start);
    expect(start).toBeGreaterThan(word);
    expect(word).toBeGreaterThan(matchScore("Accounts receivable", "ccount"));
    expect(inside).toBeGreaterThan(0);
    expect(inOrder).toBeGreaterThan(0);
    expect(inOrder).toBeLessThan(matchScore("Accounts receivable", "ccount"));
  });

  it("ignores case, accents and extra spaces, and matches typed words in any word", () => {
    expect(matchScore("Café Ltd", "  CAFE ")).toBeGreaterThan(0);
    expect(matchScore("Sales orders", "sal ord")).toBeGreaterThan(0);
    expect(matchScore("Sales orders", "ord sal")).toBeGreaterThan(0);
  });

  it("does not match what is not there", () => {
    expect(matchScore("Invoices", "xyz")).toBe(0);
    expect(matchScore("Invoices", "vni")).toBe(0); // letters out of order
    expect(matchScore("Invoices", "is")).toBe(0); // two scattered letters are noise, not a match
    expect(matchScore("Invoices", "inv x")).toBe(0);
    expect(matchScore("Dashboard", "har")).toBe(0); // three scattered letters are noise too
    expect(matchScore("Chart of accounts", "har")).toBeGreaterThan(0); // inside a word is not
  });
});

describe("rankItems", () => {
  const items: PaletteItem[] = [
    page("Dashboard"),
    page("Quotations"),
    page("Invoices"),
    page("Supplier invoices"),
    page("Stock levels", { keywords: ["Inventory"] }),
    {
      key: "new:invoice",
      group: "Create",
      title: "New invoice",
      keywords: ["Invoices"],
      to: "/dashboard/invoices/new",
    },
    { key: "new:quotation", group: "Create", title: "New quotation", to: "/dashboard/quotations/new" },
    { key: "recent:1", group: "Recent", title: "Invoice INV-2026-00001", to: "/dashboard/invoices/1" },
    { key: "company:7", group: "Companies", title: "Invincible Pte Ltd", to: "/dashboard/companies/7" },
  ];

  it("groups the matches under their headings, pages first, each group best first", () => {
    const groups = rankItems(items, "inv");
    expect(groups.map((g) => g.group)).toEqual(["Pages", "Create", "Recent", "Companies"]);
    // "Stock levels" sits under Inventory: a section counts from four letters typed, not from "inv"
    expect(groups[0].items.map((i) => i.title)).toEqual(["Invoices", "Supplier invoices"]);
    expect(groups[1].items.map((i) => i.title)).toEqual(["New invoice"]);
    expect(flatten(groups)[0].title).toBe("Invoices");
  });

  it("matches a page by its section from four letters, below the pages whose title matches", () => {
    const groups = rankItems(items, "inve");
    expect(groups[0].items[0].title).toBe("Stock levels");
    expect(rankItems(items, "invo")[0].items.map((i) => i.title)).toEqual(["Invoices", "Supplier invoices"]);
  });

  it("shows what the server found even when the title does not hold the text as typed (typed on since)", () => {
    const found: PaletteItem = { key: "product:3", group: "Products", title: "Bolt M8", matched: true, to: "/p/3" };
    expect(rankItems([found], "bolt m8x").map((g) => g.group)).toEqual(["Products"]);
    expect(rankItems([{ ...found, matched: false }], "bolt m8x")).toEqual([]);
  });

  it("keeps the navigation's order among equal matches and caps each group", () => {
    const groups = rankItems(items, "s", { Pages: 2 });
    // two titles start with the letter: both before those holding it, in the navigation's order
    expect(groups[0].items.map((i) => i.title)).toEqual(["Supplier invoices", "Stock levels"]);
  });

  it("with nothing typed shows recent documents, then what can be made, then the pages", () => {
    const groups = rankItems(items, "  ");
    expect(groups.map((g) => g.group)).toEqual(["Recent", "Create", "Pages"]);
    expect(groups.flatMap((g) => g.items)).toHaveLength(8); // companies come only from a search
  });

  it("answers nothing when nothing matches", () => {
    expect(rankItems(items, "zzzz")).toEqual([]);
  });
});

describe("moveActive", () => {
  it("moves through the results and wraps at either end", () => {
    expect(moveActive(-1, 3, 1)).toBe(0);
    expect(moveActive(-1, 3, -1)).toBe(2);
    expect(moveActive(0, 3, 1)).toBe(1);
    expect(moveActive(2, 3, 1)).toBe(0);
    expect(moveActive(0, 3, -1)).toBe(2);
    expect(moveActive(0, 0, 1)).toBe(-1);
  });
});
