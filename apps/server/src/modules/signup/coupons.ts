import { coupon } from "@workmetrics/domain/db/schema";
import type { CouponTerms } from "@workmetrics/domain/schemas/company-signup";
import { eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../platform/db/database.ts";
import { HttpError } from "../../platform/http/errors.ts";

const invalid = (message: string) => new HttpError(422, "coupon_invalid", message, [{ field: "couponCode", message }]);

// A coupon counts when it is active, inside its validity window and under its usage limit.
export async function findValidCoupon(
  db: Db | Tx,
  code: string,
  opts: { lock?: boolean } = {},
): Promise<CouponTerms & { id: number }> {
  const query = db
    .select()
    .from(coupon)
    .where(eq(sql`upper(${coupon.code})`, code.toUpperCase()));
  const [row] = opts.lock ? await query.for("update") : await query;
  const now = new Date();
  if (!row?.active) throw invalid(`The coupon ${code} does not exist`);
  if (row.validFrom && row.validFrom > now) throw invalid(`The coupon ${code} is not valid yet`);
  if (row.validUntil && row.validUntil <= now) throw invalid(`The coupon ${code} has expired`);
  if (row.usageLimit !== null && row.timesUsed >= row.usageLimit) throw invalid(`The coupon ${code} has been used up`);
  return { id: row.id, code: row.code, kind: row.kind, value: row.value };
}

export async function spendCoupon(tx: Tx, id: number): Promise<void> {
  await tx
    .update(coupon)
    .set({ timesUsed: sql`${coupon.timesUsed} + 1`, updatedAt: new Date() })
    .where(eq(coupon.id, id));
}
