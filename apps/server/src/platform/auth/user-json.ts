import { randomUUID } from "node:crypto";
import { effectivePermissions } from "@workmetrics/domain";
import {
  authMfaFactor,
  type authUser,
  role,
  tier,
  user,
  workspace,
  workspaceRole,
} from "@workmetrics/domain/db/schema";
import { and, asc, eq } from "drizzle-orm";
import type { Db, Tx } from "../db/database.ts";

export type AuthUserRow = typeof authUser.$inferSelect;
export type FactorRow = typeof authMfaFactor.$inferSelect;

const iso = (d: Date | null | undefined): string | undefined => (d ? d.toISOString() : undefined);

export type FactorJson = {
  id: string;
  friendly_name?: string;
  factor_type: string;
  status: string;
  created_at: string;
  updated_at: string;
  last_challenged_at?: string;
};

export const factorJson = (f: FactorRow): FactorJson => ({
  id: f.id,
  friendly_name: f.friendlyName ?? undefined,
  factor_type: f.factorType,
  status: f.status,
  created_at: f.createdAt.toISOString(),
  updated_at: f.updatedAt.toISOString(),
  last_challenged_at: iso(f.lastChallengedAt),
});

// The user object as GoTrue serialises it (auth-js `User`); unset timestamps are omitted, as GoTrue omits them.
export function userJson(u: AuthUserRow, factors: FactorRow[] = []) {
  const identities = u.email
    ? [
        {
          identity_id: u.id,
          id: u.id,
          user_id: u.id,
          identity_data: { email: u.email, email_verified: !!u.emailConfirmedAt, phone_verified: false, sub: u.id },
          provider: "email",
          last_sign_in_at: iso(u.lastSignInAt),
          created_at: u.createdAt.toISOString(),
          updated_at: u.updatedAt.toISOString(),
          email: u.email,
        },
      ]
    : [];
  return {
    id: u.id,
    aud: u.aud,
    role: "authenticated",
    email: u.email ?? "",
    email_confirmed_at: iso(u.emailConfirmedAt),
    phone: u.phone ?? "",
    phone_confirmed_at: iso(u.phoneConfirmedAt),
    confirmation_sent_at: iso(u.confirmationSentAt),
    confirmed_at: iso(u.emailConfirmedAt ?? u.phoneConfirmedAt),
    recovery_sent_at: iso(u.recoverySentAt),
    new_email: u.emailChange ?? undefined,
    email_change_sent_at: iso(u.emailChangeSentAt),
    invited_at: iso(u.invitedAt),
    last_sign_in_at: iso(u.lastSignInAt),
    banned_until: u.bannedUntil && u.bannedUntil > new Date() ? iso(u.bannedUntil) : undefined,
    app_metadata: u.appMetadata as Record<string, unknown>,
    user_metadata: u.userMetadata as Record<string, unknown>,
    identities,
    factors: factors.length ? factors.map(factorJson) : undefined,
    created_at: u.createdAt.toISOString(),
    updated_at: u.updatedAt.toISOString(),
    is_anonymous: false,
  };
}
export type UserJson = ReturnType<typeof userJson>;

// No account enumeration: an existing address gets an answer shaped like a new user's, with no identities.
export function obfuscatedUserJson(email: string, data: Record<string, unknown>): UserJson {
  const now = new Date();
  return {
    ...userJson({
      id: randomUUID(),
      aud: "authenticated",
      email,
      phone: null,
      encryptedPassword: null,
      emailConfirmedAt: null,
      phoneConfirmedAt: null,
      lastSignInAt: null,
      appMetadata: { provider: "email", providers: ["email"] },
      userMetadata: data,
      bannedUntil: null,
      isPlatformOperator: false,
      confirmationSentAt: now,
      recoverySentAt: null,
      invitedAt: null,
      emailChange: null,
      emailChangeSentAt: null,
      reauthenticationSentAt: null,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    }),
    identities: [],
  };
}

export const isBanned = (u: AuthUserRow, now = new Date()): boolean =>
  !!u.deletedAt || (!!u.bannedUntil && u.bannedUntil > now);

export async function loadFactors(db: Db | Tx, userId: string): Promise<FactorRow[]> {
  return db.select().from(authMfaFactor).where(eq(authMfaFactor.userId, userId)).orderBy(asc(authMfaFactor.createdAt));
}

export type Membership = {
  workspaceId: string;
  workspaceSlug: string;
  roleId: number;
  active: boolean;
};

// The workspace a user belongs to (the `user` row, spec §3). Read on the platform connection, as the seed writes it:
// the auth service runs before any workspace is known, so it cannot set app.workspace_id first.
export async function loadMembership(db: Db | Tx, userId: string): Promise<Membership | null> {
  const rows = await db
    .select({ workspaceId: user.workspaceId, workspaceSlug: workspace.slug, roleId: user.roleId, active: user.active })
    .from(user)
    .innerJoin(workspace, eq(workspace.id, user.workspaceId))
    .where(eq(user.id, userId))
    .orderBy(asc(user.createdAt))
    .limit(1);
  return rows[0] ?? null;
}

// GET /api/auth/user: the database user with role, workspace, tier and features (spec §3 "User").
export async function loadProfile(db: Db, userId: string) {
  const rows = await db
    .select({ u: user, r: role, w: workspace, t: tier, granted: workspaceRole.permissions })
    .from(user)
    .innerJoin(role, eq(role.id, user.roleId))
    .leftJoin(
      workspaceRole,
      and(eq(workspaceRole.workspaceId, user.workspaceId), eq(workspaceRole.id, user.workspaceRoleId)),
    )
    .innerJoin(workspace, eq(workspace.id, user.workspaceId))
    .innerJoin(tier, eq(tier.id, workspace.tierId))
    .where(eq(user.id, userId))
    .orderBy(asc(user.createdAt))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  const { u, r, w, t, granted } = row;
  const color = (c: string | null) => (c && c !== "-" ? c : null);
  return {
    id: u.id,
    slug: u.slug,
    name: u.name,
    email: u.email,
    active: u.active,
    role_id: u.roleId,
    workspace_id: u.workspaceId,
    currency_factor_id: u.currencyFactorId,
    currency_factor: u.currencyFactorId === null ? null : { id: u.currencyFactorId },
    // Spec §3: the detail read adds the role's permissions — the effective set the server checks (issue 9).
    role: { id: r.id, title: r.title, slug: r.slug, permissions: effectivePermissions(r.id, granted) },
    workspace: {
      id: w.id,
      slug: w.slug,
      name: w.name,
      tier_id: w.tierId,
      user_id: w.userId,
      primary_color: color(w.primaryColor),
      secondary_color: color(w.secondaryColor),
      base_currency: w.baseCurrency,
      logo: w.logo,
      suspended_at: iso(w.suspendedAt) ?? null,
      sandbox_expires_at: iso(w.sandboxExpiresAt) ?? null, // issue 21 §3: a sandbox says so, and until when
      tier: { id: t.id, slug: t.slug, title: t.title, features: t.features },
      features: t.features,
    },
    created_at: u.createdAt.toISOString(),
    updated_at: u.updatedAt.toISOString(),
  };
}
