import { ROLE, tierById, workspaceHost } from "@workmetrics/domain";
import { authUser, subscription, user, workspace } from "@workmetrics/domain/db/schema";
import {
  BillingCycle,
  CompanySignupInput,
  quotePrice,
  WorkspaceSlug,
} from "@workmetrics/domain/schemas/company-signup";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { findByEmail, isUniqueViolation } from "../../platform/auth/lookup.ts";
import { sendTokenMail } from "../../platform/auth/one-time-tokens.ts";
import { hashPassword } from "../../platform/auth/password.ts";
import { assertStrongPassword } from "../../platform/auth/password-policy.ts";
import { hit } from "../../platform/auth/rate-limit.ts";
import { clientMeta } from "../../platform/auth/request.ts";
import type { Db } from "../../platform/db/database.ts";
import { setUpWorkspace } from "../../platform/db/workspace-setup.ts";
import { HttpError } from "../../platform/http/errors.ts";
import { findValidCoupon, spendCoupon } from "./coupons.ts";

const field = (name: string, message: string, status = 422, code = "validation_failed") =>
  new HttpError(status, code, message, [{ field: name, message }]);

const CouponQuery = z.object({ tierId: z.coerce.number().int(), cycle: BillingCycle });

// Issue 4 item 6: a new company signs up from /pricing — owner account, workspace and subscription in one go.
export async function signupRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  const deps = app.authDeps;

  async function slugTaken(slug: string): Promise<boolean> {
    const rows = await db.select({ id: workspace.id }).from(workspace).where(eq(workspace.slug, slug)).limit(1);
    return rows.length > 0;
  }

  app.get("/api/public/slug-availability", async (req) => {
    const parsed = WorkspaceSlug.safeParse((req.query as { slug?: string }).slug ?? "");
    if (!parsed.success) return { available: false, message: parsed.error.issues[0].message };
    if (await slugTaken(parsed.data)) return { slug: parsed.data, available: false, message: "That address is taken" };
    return { slug: parsed.data, available: true };
  });

  app.get("/api/public/coupons/:code", async (req) => {
    const { tierId, cycle } = CouponQuery.parse(req.query);
    const tier = tierById(tierId);
    if (!tier) throw field("tierId", "Choose a plan");
    const terms = await findValidCoupon(db, (req.params as { code: string }).code);
    return { code: terms.code, kind: terms.kind, value: terms.value, quote: quotePrice(tier, cycle, terms) };
  });

  app.post("/api/public/signup", async (req, reply) => {
    const input = CompanySignupInput.parse(req.body ?? {});
    const meta = clientMeta(req);
    await hit(db, deps.config.auth.rateLimits, "sign_in", meta.ip);
    const tier = tierById(input.tierId);
    if (!tier) throw field("tierId", "Choose a plan");
    try {
      assertStrongPassword(input.password);
    } catch (err) {
      throw field("password", err instanceof Error ? err.message : "Choose a stronger password");
    }
    if (await findByEmail(db, input.email)) {
      throw field(
        "email",
        "An account with this e-mail already exists. Sign in instead, or use another e-mail.",
        409,
        "email_exists",
      );
    }
    // Issue 9 §3: every sign-up mails a confirmation, so it also spends the per-IP e-mail budget (counted before
    // anything is created: a refused sign-up leaves no account behind and sends nothing).
    await hit(db, deps.config.auth.rateLimits, "email_sent", meta.ip);
    const hashed = await hashPassword(input.password);
    let created: typeof authUser.$inferSelect;
    try {
      created = await db.transaction(async (tx) => {
        const terms = input.couponCode ? await findValidCoupon(tx, input.couponCode, { lock: true }) : null;
        const quote = quotePrice(tier, input.cycle, terms);
        const [owner] = await tx
          .insert(authUser)
          .values({
            email: input.email,
            encryptedPassword: hashed,
            appMetadata: { provider: "email", providers: ["email"] },
            userMetadata: { name: input.name },
          })
          .returning();
        const [ws] = await tx
          .insert(workspace)
          .values({ slug: input.slug, name: input.companyName, tierId: tier.id, userId: owner.id })
          .returning({ id: workspace.id });
        const roles = await setUpWorkspace(tx, ws.id);
        await tx.insert(user).values({
          workspaceId: ws.id,
          id: owner.id,
          slug: `owner-${input.slug}`,
          name: input.name,
          email: input.email,
          roleId: ROLE.Owner,
          workspaceRoleId: roles.get(ROLE.Owner),
        });
        await tx.insert(subscription).values({
          workspaceId: ws.id,
          tierId: tier.id,
          cycle: input.cycle,
          listPrice: quote.listPrice,
          discount: quote.discount,
          price: quote.price,
          couponCode: terms?.code ?? null,
        });
        if (terms) await spendCoupon(tx, terms.id);
        return owner;
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        if (await slugTaken(input.slug)) throw field("slug", "That address is taken", 409, "slug_taken");
        throw field("email", "An account with this e-mail already exists.", 409, "email_exists");
      }
      throw err;
    }
    // The confirmation link lands the owner on their own workspace host, signed in (DESIGN §3.3).
    // Same scheme and port as the page the owner signed up on (PUBLIC_URL's when the request does not say).
    const base = new URL(deps.config.publicUrl);
    const port = /:(\d+)$/.exec(req.host ?? "")?.[1] ?? base.port;
    const protocol = req.host ? `${req.protocol}:` : base.protocol;
    const host = workspaceHost(input.slug, deps.config.baseDomain, "main", port || undefined);
    const redirectTo = `${protocol}//${host}/auth/success`;
    await sendTokenMail(deps, created, "signup", { to: input.email, redirectTo });
    return reply.code(201).send({ email: input.email, workspace: { slug: input.slug, url: `${protocol}//${host}` } });
  });
}
