import { banner, caseStudy, demoRequest, tier } from "@workmetrics/domain/db/schema";
import { DemoRequestInput } from "@workmetrics/domain/schemas/demo-request";
import { and, asc, eq, gt, isNull, lte, or } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../platform/db/database.ts";
import { limit, type Window } from "../orders/rate-limit.ts";

// A person books a demo or two; a dozen an hour from one address is a script.
const DEMO_REQUEST_LIMIT: Window = { max: 12, windowSeconds: 3600 };

// Public site data (no sign-in): tiers, case studies, banners, and demo bookings.
export async function publicRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;

  app.get("/api/public/tiers", async () => {
    const rows = await db.select().from(tier).orderBy(asc(tier.id));
    return rows.map(({ createdAt: _c, updatedAt: _u, ...t }) => t);
  });

  // Banners in their schedule window, for the landing page or the dashboards (issue 4 item 9).
  const activeBanners = (placement: "landing" | "dashboard") => {
    const now = new Date();
    return db
      .select({
        id: banner.id,
        title: banner.title,
        body: banner.body,
        linkUrl: banner.linkUrl,
        linkLabel: banner.linkLabel,
      })
      .from(banner)
      .where(
        and(
          eq(banner.active, true),
          eq(banner.placement, placement),
          or(isNull(banner.startsAt), lte(banner.startsAt, now)),
          or(isNull(banner.endsAt), gt(banner.endsAt, now)),
        ),
      )
      .orderBy(asc(banner.id));
  };

  app.get("/api/public/landing", async () => {
    const [studies, banners] = await Promise.all([
      db
        .select({
          id: caseStudy.id,
          title: caseStudy.title,
          companyName: caseStudy.companyName,
          industry: caseStudy.industry,
          summary: caseStudy.summary,
          quote: caseStudy.quote,
          quoteAuthor: caseStudy.quoteAuthor,
          metricValue: caseStudy.metricValue,
          metricLabel: caseStudy.metricLabel,
        })
        .from(caseStudy)
        .where(eq(caseStudy.published, true))
        .orderBy(asc(caseStudy.sortOrder), asc(caseStudy.id)),
      activeBanners("landing"),
    ]);
    return { caseStudies: studies, banners };
  });

  app.get("/api/public/banners/dashboard", async () => activeBanners("dashboard"));

  // Issue 21 §2: the limit the route declared and nothing read. Per address, refused tries counted too.
  app.post("/api/public/demo-requests", async (req, reply) => {
    await limit(db, reply, `demo_request:${req.ip}`, DEMO_REQUEST_LIMIT, "Too many demo requests from your network.");
    const input = DemoRequestInput.parse(req.body ?? {});
    const [row] = await db
      .insert(demoRequest)
      .values({ ...input, preferredDate: input.preferredDate ?? null })
      .returning({ id: demoRequest.id, createdAt: demoRequest.createdAt });
    return reply.code(201).send(row);
  });
}
