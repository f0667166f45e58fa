import type { FieldDef } from "@workmetrics/domain/resources/types";

// The server checks a document's header with the resource's own zod schema; a value never given comes back in
// zod's words ("Invalid input: expected number, received undefined"). The page says what to do instead, as the
// generic forms do for a required field: a reference asks to be chosen ("Choose a customer").
const MISSING = /^Invalid input: expected [\w ]+, received (undefined|null)$/;

export function requiredMessage(f: FieldDef): string {
  return f.kind === "reference" ? `Choose a ${f.label.toLowerCase()}` : `${f.label} is required`;
}

// The header's field messages from a refused save (`header.company_id` → `company_id`), in the page's words.
export function headerMessages(fields: Record<string, string>, header: readonly FieldDef[]): Record<string, string> {
  const byName = new Map(header.map((f) => [f.name, f]));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) {
    const name = k.replace(/^header\./, "");
    const f = byName.get(name);
    out[name] = f && MISSING.test(v) ? requiredMessage(f) : v;
  }
  return out;
}

// Read-only figures that only mean something after submit (what an invoice still owes) are not shown on a draft.
export function shownOutstanding(doc: Record<string, unknown> | null, isDraft: boolean): string | null | undefined {
  if (!doc || isDraft || !("outstanding" in doc)) return undefined;
  return doc.outstanding as string | null;
}
