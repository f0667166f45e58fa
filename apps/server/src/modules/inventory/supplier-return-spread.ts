import { Dec, dec } from "@workmetrics/domain/documents/decimal";

type D = ReturnType<typeof dec>;

// Which supplier invoice lines a return to the supplier debits, pure. A receipt line may be billed by several
// invoices (part now, the rest later): what comes back is debited from them in order (oldest invoice first), each up
// to what it billed less what earlier returns already debited from it (its qty_returned), and in all no more than
// the receipt line's billed quantity less what the other live returns debited (`open`).

export type BillingLine = { id: number; receiptLineId: number; qty: string; returned: string };
export type ReturnedLine = { id: number; receiptLineId: number; qty: string };
export type Take = { returnLineId: number; invoiceLineId: number; qty: string };

export function spreadReturn(
  billing: readonly BillingLine[], // in the order they are debited
  open: ReadonlyMap<number, string>, // receipt line → what is left to debit of it
  returning: readonly ReturnedLine[],
): Take[] {
  const room = new Map<number, D>(billing.map((b) => [b.id, Dec.max(dec(b.qty).minus(dec(b.returned || "0")), 0)]));
  const left = new Map<number, D>([...open].map(([id, q]) => [id, Dec.max(dec(q), 0)]));
  const takes: Take[] = [];
  for (const r of returning) {
    let want = Dec.min(dec(r.qty), left.get(r.receiptLineId) ?? dec("0"));
    for (const b of billing) {
      if (b.receiptLineId !== r.receiptLineId || !want.greaterThan(0)) continue;
      const q = Dec.min(want, room.get(b.id) as D);
      if (!q.greaterThan(0)) continue;
      room.set(b.id, (room.get(b.id) as D).minus(q));
      want = want.minus(q);
      left.set(r.receiptLineId, (left.get(r.receiptLineId) as D).minus(q));
      takes.push({ returnLineId: r.id, invoiceLineId: b.id, qty: q.toFixed() });
    }
  }
  return takes;
}
