import { CHART_OF_ACCOUNTS, POSTING_RULES } from "@workmetrics/domain/documents/postings";

// What the confirm dialog of a cancel says, from the type's declarations (finding 3): its posting rule says whether
// a journal entry is reversed, and whether that entry moves a stock account whether stock moves are. Its buttons
// name what they do, never "Cancel" twice: "Cancel debit note" and "Keep it".
const STOCK_ACCOUNTS = new Set(CHART_OF_ACCOUNTS.filter((a) => a.type === "stock").map((a) => a.code));

export function cancelWording(type: string, title: string, isDraft: boolean) {
  const rule = (POSTING_RULES as Readonly<Record<string, (typeof POSTING_RULES)[keyof typeof POSTING_RULES]>>)[type];
  const stock = rule?.legs.some((l) => STOCK_ACCOUNTS.has(l.account)) ?? false;
  const body = isDraft
    ? "The draft stays in the list as cancelled; it cannot be edited afterwards."
    : stock
      ? "Its stock moves and journal entry are reversed. This cannot be undone."
      : rule
        ? "Its journal entry is reversed. This cannot be undone."
        : "It stays in the list as cancelled. This cannot be undone.";
  return { body, confirmLabel: `Cancel ${title.toLowerCase()}`, keepLabel: "Keep it" };
}
