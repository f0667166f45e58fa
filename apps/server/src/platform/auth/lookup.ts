import { authUser } from "@workmetrics/domain/db/schema";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/database.ts";
import { badRequest } from "./auth-error.ts";
import type { AuthUserRow } from "./user-json.ts";

// A pragmatic address check; the confirmation mail is the real test.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normaliseEmail(email: unknown): string {
  if (typeof email !== "string" || !EMAIL.test(email.trim()) || email.length > 254) {
    throw badRequest("email_address_invalid", "Unable to validate email address: invalid format");
  }
  return email.trim().toLowerCase();
}

export async function findByEmail(db: Db | Tx, email: string): Promise<AuthUserRow | null> {
  const rows = await db
    .select()
    .from(authUser)
    .where(and(sql`lower(${authUser.email}) = ${email.toLowerCase()}`, isNull(authUser.deletedAt)));
  return rows[0] ?? null;
}

export async function findByPhone(db: Db | Tx, phone: string): Promise<AuthUserRow | null> {
  const rows = await db
    .select()
    .from(authUser)
    .where(and(eq(authUser.phone, phone.replace(/[\s()+-]/g, "")), isNull(authUser.deletedAt)));
  return rows[0] ?? null;
}

export const normalisePhone = (phone: string) => phone.replace(/[\s()+-]/g, "");

export const isUniqueViolation = (err: unknown): boolean =>
  !!err &&
  typeof err === "object" &&
  ((err as { code?: string }).code === "23505" || isUniqueViolation((err as { cause?: unknown }).cause));
