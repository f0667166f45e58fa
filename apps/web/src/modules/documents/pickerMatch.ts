import type { Row } from "../../platform/data-access/provider.ts";

// The picker's choices for what is typed now. The server's answer for this very text is shown as it came (it
// searched columns the row may not carry); an older answer — the previous text's, or while the debounce waits —
// is narrowed here to the rows whose searched columns or label contain the text, so Enter never picks a row that
// does not match what was typed ("Marina" + Enter at once picked the first customer of the unfiltered list).
export function matchingOptions(
  rows: readonly Row[],
  input: string,
  fresh: boolean,
  columns: readonly string[],
  label: (r: Row) => string,
): Row[] {
  const text = input.trim().toLowerCase();
  if (fresh || !text) return [...rows];
  return rows.filter(
    (r) =>
      label(r).toLowerCase().includes(text) ||
      columns.some((c) => {
        const v = r[c];
        return v !== null && v !== undefined && String(v).toLowerCase().includes(text);
      }),
  );
}
