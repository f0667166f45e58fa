import { ROLE, workspaceHost } from "@workmetrics/domain";
import { authUser, creditEntry, subscription, user, workspace, workspaceRole } from "@workmetrics/domain/db/schema";
import { BusinessDetails } from "@workmetrics/domain/schemas/business-details";
import { WorkspaceSlug } from "@workmetrics/domain/schemas/company-signup";
import { and, desc, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { findByEmail, isUniqueViolation } from "../../platform/auth/lookup.ts";
import { sendTokenMail } from "../../platform/auth/one-time-tokens.ts";
import { endUserSessions } from "../../platform/auth/sessions.ts";
import type { Db } from "../../platform/db/database.ts";
import { HttpError } from "../../platform/http/errors.ts";
import { asMember } from "../../platform/http/member.ts";
import { storageUsage } from "../../platform/storage/quota.ts";

const field = (name: string, message: string, status = 422, code = "validation_failed") =>
  new HttpError(status, code, message, [{ field: name, message }]);

const SlugInput = z.object({ slug: WorkspaceSlug });
const LogoInput = z.object({
  logo: z
    .string()
    .max(280_000, "The logo must be at most 200 KB")
    .regex(/^data:image\/(png|jpeg|webp|svg\+xml);base64,[A-Za-z0-9+/=]+$/, "Use a PNG, JPEG, WebP or SVG image")
    .nullable(),
});
const InviteInput = z.object({
  email: z.string({ message: "E-mail is required" }).trim().toLowerCase().email("Enter a valid e-mail address"),
  name: z.string({ message: "Name is required" }).trim().min(1, "Name is required").max(120),
  workspace_role_id: z.coerce.number({ message: "Choose a role" }).int().positive("Choose a role"),
});
const UserParams = z.object({ id: z.string().uuid("Not a user id") });

// Issue 4 item 8: what a workspace's own settings and users pages need beyond the generic /rest/v1 screens.
export async function workspaceRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  const deps = app.authDeps;

  const pageOrigin = (host: string | undefined, slug: string, protocol: string) => {
    const port = /:(\d+)$/.exec(host ?? "")?.[1] ?? new URL(deps.config.publicUrl).port;
    return `${protocol}://${workspaceHost(slug, deps.config.baseDomain, "main", port || undefined)}`;
  };

  // The plan, its price, the usage credit balance, the seats in use and the storage used of the tier's quota.
  app.get("/api/workspace/overview", async (req) =>
    asMember(req, db, "workspace.read", async (tx, m) => {
      const [sub] = await tx
        .select()
        .from(subscription)
        .where(eq(subscription.workspaceId, m.workspaceId))
        .orderBy(desc(subscription.startsAt))
        .limit(1);
      const [credits] = await tx
        .select({ balance: sql<string>`coalesce(sum(${creditEntry.amount}), 0)::text` })
        .from(creditEntry)
        .where(eq(creditEntry.workspaceId, m.workspaceId));
      const [seats] = await tx
        .select({ active: sql<number>`count(*) filter (where ${user.active})::int` })
        .from(user)
        .where(eq(user.workspaceId, m.workspaceId));
      const files = await storageUsage(tx, m.workspaceId);
      return {
        subscription: sub
          ? {
              tier_id: sub.tierId,
              cycle: sub.cycle,
              list_price: sub.listPrice,
              discount: sub.discount,
              price: sub.price,
              coupon_code: sub.couponCode,
              status: sub.status,
              starts_at: sub.startsAt.toISOString(),
            }
          : null,
        credit_balance: credits?.balance ?? "0",
        active_users: seats?.active ?? 0,
        storage: { used_bytes: files.usedBytes, quota_bytes: files.quotaBytes },
      };
    }),
  );

  // Changing the address moves everyone to a new host; the page warns before it calls this.
  app.post("/api/workspace/slug", async (req) => {
    const { slug } = SlugInput.parse(req.body ?? {});
    return asMember(req, db, "workspace.update", async (tx, m) => {
      const [taken] = await tx.select({ id: workspace.id }).from(workspace).where(eq(workspace.slug, slug)).limit(1);
      if (taken && taken.id !== m.workspaceId) throw field("slug", "That address is taken", 409, "slug_taken");
      return m.workspaceId;
    }).then(async (workspaceId) => {
      // The workspace row is a platform row (no RLS): written by the server once the member's right is checked.
      try {
        await db.update(workspace).set({ slug, updatedAt: new Date() }).where(eq(workspace.id, workspaceId));
      } catch (err) {
        if (isUniqueViolation(err)) throw field("slug", "That address is taken", 409, "slug_taken");
        throw err;
      }
      return { slug, url: pageOrigin(req.headers.host, slug, req.protocol) };
    });
  });

  // What tax invoices name of the seller (address, UEN, GST registration number): read by whoever reads the
  // workspace, changed by whoever may change it.
  const details = {
    business_address: workspace.businessAddress,
    uen: workspace.uen,
    gst_registration_number: workspace.gstRegistrationNumber,
  };
  app.get("/api/workspace/details", async (req) =>
    asMember(req, db, "workspace.read", async (tx, m) => {
      const [row] = await tx.select(details).from(workspace).where(eq(workspace.id, m.workspaceId));
      return row;
    }),
  );
  app.put("/api/workspace/details", async (req) => {
    const input = BusinessDetails.parse(req.body ?? {});
    const workspaceId = await asMember(req, db, "workspace.update", async (_tx, m) => m.workspaceId);
    const [row] = await db
      .update(workspace)
      .set({
        businessAddress: input.business_address,
        uen: input.uen,
        gstRegistrationNumber: input.gst_registration_number,
        updatedAt: new Date(),
      })
      .where(eq(workspace.id, workspaceId))
      .returning(details);
    return row;
  });

  app.put("/api/workspace/logo", async (req) => {
    const { logo } = LogoInput.parse(req.body ?? {});
    const workspaceId = await asMember(req, db, "workspace.update", async (_tx, m) => m.workspaceId);
    await db.update(workspace).set({ logo, updatedAt: new Date() }).where(eq(workspace.id, workspaceId));
    return { logo };
  });

  // Invites a colleague through the auth invite flow: the account exists unconfirmed until the link is opened.
  app.post("/api/workspace/invitations", async (req, reply) => {
    const input = InviteInput.parse(req.body ?? {});
    // Checked as the member (RLS): the permission and that the role belongs to this workspace.
    const { member, role, slug } = await asMember(req, db, "user.create", async (tx, m) => {
      const [r] = await tx
        .select()
        .from(workspaceRole)
        .where(and(eq(workspaceRole.workspaceId, m.workspaceId), eq(workspaceRole.id, input.workspace_role_id)));
      if (!r) throw field("workspace_role_id", "Choose a role of this workspace");
      if (r.baseRoleId === ROLE.Owner)
        throw field("workspace_role_id", "A workspace has one owner; choose another role");
      const [ws] = await tx.select({ slug: workspace.slug }).from(workspace).where(eq(workspace.id, m.workspaceId));
      return { member: m, role: r, slug: ws.slug };
    });
    // Accounts are platform rows, written by the server itself, in one transaction with the membership.
    if (await findByEmail(db, input.email)) {
      throw field("email", "That person already has a Workmetrics account; ask them to sign in", 409, "email_exists");
    }
    let account: typeof authUser.$inferSelect;
    try {
      account = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(authUser)
          .values({
            email: input.email,
            appMetadata: { provider: "email", providers: ["email"] },
            userMetadata: { name: input.name },
          })
          .returning();
        await tx.insert(user).values({
          workspaceId: member.workspaceId,
          id: created.id,
          slug: `${input.email.split("@")[0].replace(/[^a-z0-9]+/g, "-")}-${created.id.slice(0, 6)}`,
          name: input.name,
          email: input.email,
          roleId: role.baseRoleId,
          workspaceRoleId: role.id,
        });
        return created;
      });
    } catch (err) {
      if (isUniqueViolation(err))
        throw field("email", "That person already has a Workmetrics account", 409, "email_exists");
      throw err;
    }
    const redirectTo = `${pageOrigin(req.headers.host, slug, req.protocol)}/auth/reset`;
    await sendTokenMail(deps, account, "invite", { to: input.email, redirectTo });
    return reply.code(201).send({ id: account.id, email: input.email });
  });

  // Deactivating a user ends all their sessions at once (issue 4 item 8); reactivating lets them sign in again.
  for (const [action, active] of [
    ["deactivate", false],
    ["reactivate", true],
  ] as const) {
    app.post(`/api/workspace/users/:id/${action}`, async (req) => {
      const { id } = UserParams.parse(req.params);
      await asMember(req, db, "user.update", async (tx, m) => {
        if (id === m.auth.userId) throw new HttpError(422, "self", "You cannot deactivate yourself");
        const [target] = await tx
          .select()
          .from(user)
          .where(and(eq(user.workspaceId, m.workspaceId), eq(user.id, id)));
        if (!target) throw new HttpError(404, "not_found", "No such user in this workspace");
        if (target.roleId === ROLE.Owner)
          throw new HttpError(422, "owner", "The workspace owner cannot be deactivated");
        await tx
          .update(user)
          .set({ active, updatedAt: new Date() })
          .where(and(eq(user.workspaceId, m.workspaceId), eq(user.id, id)));
      });
      // Sessions are platform rows: ended after the membership change has committed.
      if (!active) await endUserSessions(db, id);
      return { id, active };
    });
  }
}
