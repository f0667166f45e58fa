// The command palette's matching and ordering (issue 21 §1), pure so it is tested without a browser.

export type PaletteGroup = "Pages" | "Create" | "Recent" | "Companies" | "Products";

// The headings in the order they are shown; with nothing typed, what was opened lately comes first.
export const GROUP_ORDER: readonly PaletteGroup[] = ["Pages", "Create", "Recent", "Companies", "Products"];
export const EMPTY_QUERY_ORDER: readonly PaletteGroup[] = ["Recent", "Create", "Pages"];

export type PaletteItem = {
  key: string; // unique among all items
  group: PaletteGroup;
  title: string;
  hint?: string; // a second line: the section, the SKU
  keywords?: readonly string[]; // matched as well as the title, counting less
  to: string; // the address it opens
  lock?: string | null; // a page the plan lacks: shown locked, opening it shows the upgrade
  matched?: boolean; // found by the server's search for what was typed: shown whatever its title scores here
};

export type Grouped = { group: PaletteGroup; items: PaletteItem[] };

const norm = (s: string): string =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();

// How well `text` matches what was typed: 0 is no match; a whole match beats a start, which beats the start of a
// later word, which beats a match inside a word, which beats the letters in order ("slsord" → "Sales orders").
export function matchScore(text: string, query: string): number {
  const q = norm(query);
  if (!q) return 1;
  const t = norm(text);
  if (!t) return 0;
  if (t === q) return 100;
  if (t.startsWith(q)) return 80 - Math.min(10, t.length - q.length) / 10;
  const words = t.split(/[\s\-/·,()]+/);
  if (words.some((w) => w.startsWith(q))) return 60;
  // Every typed word starts a word of the text ("sal ord" → "Sales orders").
  const parts = q.split(" ");
  if (parts.length > 1 && parts.every((p) => words.some((w) => w.startsWith(p)))) return 50;
  if (t.includes(q)) return 40;
  // The letters in order, no space typed; tighter runs score higher.
  if (q.includes(" ")) return 0;
  let at = -1;
  let gaps = 0;
  for (const c of q) {
    const next = t.indexOf(c, at + 1);
    if (next < 0) return 0;
    if (at >= 0) gaps += next - at - 1;
    at = next;
  }
  // Three scattered letters match half the menu ("har" → Dashboard): from four letters, and not spread thin.
  return q.length >= 4 && gaps <= 2 * q.length ? Math.max(1, 20 - gaps) : 0;
}

// Keywords (a page's section) count from four letters typed: "inv" is the start of Invoices, not of every page
// under Inventory.
export const KEYWORD_MIN = 4;

export function itemScore(item: PaletteItem, query: string): number {
  const own = matchScore(item.title, query);
  if (norm(query).length < KEYWORD_MIN && !item.matched) return own;
  // …and only as words, never as scattered letters.
  const extra = Math.max(
    0,
    ...(item.keywords ?? []).map((k) => matchScore(k, query)).map((s) => (s >= 40 || item.matched ? s * 0.6 : 0)),
  );
  return Math.max(own, extra);
}

// The items that match, grouped under their headings in the shown order, each group best first (ties keep the
// order given, the navigation's), at most `perGroup` each; groups with nothing are left out.
export function rankItems(
  items: readonly PaletteItem[],
  query: string,
  perGroup: Partial<Record<PaletteGroup, number>> = {},
): Grouped[] {
  const q = query.trim();
  const order = q ? GROUP_ORDER : EMPTY_QUERY_ORDER;
  const scored = items
    .map((item, i) => ({ item, i, score: item.matched ? Math.max(1, itemScore(item, q)) : itemScore(item, q) }))
    .filter((s) => s.score > 0 && order.includes(s.item.group));
  return order.flatMap((group): Grouped[] => {
    const inGroup = scored
      .filter((s) => s.item.group === group)
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .map((s) => s.item)
      .slice(0, perGroup[group] ?? Number.POSITIVE_INFINITY);
    return inGroup.length ? [{ group, items: inGroup }] : [];
  });
}

export const flatten = (groups: readonly Grouped[]): PaletteItem[] => groups.flatMap((g) => g.items);

// The arrow keys move through every result across the groups, wrapping at either end.
export function moveActive(active: number, count: number, by: 1 | -1): number {
  if (count === 0) return -1;
  if (active < 0) return by === 1 ? 0 : count - 1;
  return (active + by + count) % count;
}
