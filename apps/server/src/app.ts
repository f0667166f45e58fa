import { randomUUID } from "node:crypto";
import type http from "node:http";
import { hostname } from "node:os";
import compress from "@fastify/compress";
import Fastify, { type FastifyInstance } from "fastify";
import type { Config } from "./config.ts";
import { accountRoutes } from "./modules/account/account.route.ts";
import { calendarFeedRoutes } from "./modules/challenge/calendar.rpc.ts";
import { documentPdfRoutes } from "./modules/documents/pdf/pdf.route.ts";
import { inboxAttachmentRoutes } from "./modules/inbox/attachment.route.ts";
import { instagramRoutes } from "./modules/inbox/instagram.route.ts";
import { INSTAGRAM_REFRESH_JOB, refreshInstagramTokens } from "./modules/inbox/instagram.ts";
import { META_WEBHOOK_JOB, type MetaPayload, processMetaWebhook } from "./modules/inbox/intake.ts";
import { ONEDRIVE_JOB, onedriveHandler } from "./modules/inbox/onedrive.ts";
import { outlookRoutes } from "./modules/inbox/outlook.route.ts";
import {
  OUTLOOK_NOTIFY_JOB,
  OUTLOOK_RENEW_JOB,
  type OutlookNotification,
  processOutlookNotifications,
  renewOutlookSubscriptions,
} from "./modules/inbox/outlook.ts";
import { SEND_JOB, sendHandler } from "./modules/inbox/send.ts";
import { metaWebhookRoutes } from "./modules/inbox/webhook.route.ts";
import { registerModules } from "./modules/index.ts";
import { UNREAD_NOTICE_JOB, unreadNoticeHandler } from "./modules/marketplace/notice.ts";
import { publicOrderFormRoutes } from "./modules/orders/public-order-form.route.ts";
import { LINK_EXPIRY_SWEEP, sweepExpired } from "./modules/partners/discount-form.store.ts";
import { publicPartnerRoutes } from "./modules/partners/public-partners.route.ts";
import { platformRoutes } from "./modules/platform/platform.route.ts";
import { posPublicRoutes } from "./modules/pos/pos.route.ts";
import { publicRoutes } from "./modules/public/public.route.ts";
import { OVERDUE_SWEEP, sweepOverdue } from "./modules/reports/overdue.ts";
import { reportPdfRoutes } from "./modules/reports/report-pdf.route.ts";
import { roleAppRoutes } from "./modules/roleapps/roleapps.route.ts";
import { sandboxRoutes } from "./modules/sandbox/sandbox.route.ts";
import { SANDBOX_SWEEP, sandboxFiles, sweepSandboxes } from "./modules/sandbox/sandbox.ts";
import { signupRoutes } from "./modules/signup/signup.route.ts";
import { workspaceRoutes } from "./modules/workspace/workspace.route.ts";
import { authPlugin } from "./platform/auth/auth.plugin.ts";
import { createMailer } from "./platform/auth/mail.ts";
import type { Database } from "./platform/db/database.ts";
import { registerErrorHandler } from "./platform/http/errors.ts";
import { registerLifecycle } from "./platform/http/lifecycle.ts";
import { registerMetrics } from "./platform/http/metrics.ts";
import { registerSecurity } from "./platform/http/security.ts";
import { registerSpa } from "./platform/http/spa.ts";
import type { CommandDeps } from "./platform/jobs/deps.ts";
import { MAIL_JOB, mailHandler, mailSealer } from "./platform/jobs/mail.ts";
import { platformJobRoutes } from "./platform/jobs/operator.route.ts";
import { PRUNE_JOBS, pruneDone } from "./platform/jobs/queue.ts";
import { createJobs } from "./platform/jobs/worker.ts";
import { pruneAnnouncements } from "./platform/realtime/announce.ts";
import { realtimeRoutes } from "./platform/realtime/realtime.route.ts";
import { restRoutes } from "./platform/rest/rest.route.ts";
import { createFileStore } from "./platform/storage/disk.ts";
import { storagePlugin } from "./platform/storage/storage.plugin.ts";
import { VERSION } from "./version.ts";

const HOUR = 60 * 60_000;

export async function buildApp(
  config: Config,
  database: Database,
  // Issue 21 §5: the server main.ts listened on before the app was built (platform/http/early.ts).
  opts: { serverFactory?: (handler: http.RequestListener) => http.Server } = {},
): Promise<FastifyInstance> {
  registerModules();
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ["req.headers.authorization", "req.headers.cookie"],
      // Issue 25: each line names its instance; reqId is nginx's X-Request-Id, so one request reads across both.
      base: { pid: process.pid, hostname: hostname(), instance: config.instanceId },
    },
    genReqId: (req) => (req.headers["x-request-id"] as string | undefined)?.slice(0, 64) || randomUUID(),
    requestIdHeader: false,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    bodyLimit: 1_048_576,
    ...(opts.serverFactory ? { serverFactory: opts.serverFactory } : {}),
  });
  app.addHook("onSend", async (req, reply) => {
    reply.header("x-request-id", req.id);
  });
  registerErrorHandler(app);
  await registerSecurity(app, { production: config.production });
  await app.register(compress, { threshold: 1024 });

  app.get("/api/health", async (_req, reply) => {
    await database.db.execute("select 1");
    return reply
      .header("cache-control", "no-store")
      .send({ status: "ok", database: database.kind, version: VERSION, instance: config.instanceId });
  });
  // Issue 25 §1 and §4: /api/ready (503 before ready and while draining), the replica's read-your-writes
  // positions, and /metrics.
  const lifecycle = registerLifecycle(app, { database, instanceId: config.instanceId });
  registerMetrics(app, {
    database,
    instanceId: config.instanceId,
    token: config.metricsToken,
    draining: () => lifecycle.draining,
  });
  // Issue 20 §1: this server's own mailer, job queue and worker — the dependencies its commands get (CommandDeps),
  // never module state. The worker starts when the app is ready and stops (finishing what it runs) when it closes.
  const from = `Workmetrics <no-reply@${config.baseDomain.includes(".") ? config.baseDomain : "workmetrics.test"}>`;
  const mailer = createMailer(database.db, config.smtpUrl, from);
  const jobs = createJobs({
    database,
    log: app.log,
    retryMs: config.jobRetryMs,
    handlers: {
      [MAIL_JOB]: mailHandler(mailer, mailSealer(config.jwtSecret)),
      // Issue 24: Meta's webhooks, stored message by message, and the inbox's replies sent through the Graph API.
      [META_WEBHOOK_JOB]: async (payload: MetaPayload) => {
        const r = await processMetaWebhook(database.db, config.inbox, payload, app.log);
        if (r.stored || r.statuses) app.log.info(r, "a Meta webhook stored");
      },
      [SEND_JOB]: sendHandler(config.inbox),
      // Issue 23: the e-mail notice of a marketplace chat's unread stretch (queued by marketplace_message_send).
      [UNREAD_NOTICE_JOB]: (payload) => unreadNoticeHandler(database.db, { jobs, links: deps.links })(payload as never),
      // Issue 24: Outlook's notifications (mails fetched from Graph; lifecycle events) and its subscriptions' upkeep.
      [OUTLOOK_NOTIFY_JOB]: async (payload: { value: OutlookNotification[] }) => {
        const r = await processOutlookNotifications(
          database.db,
          config.inbox,
          config.publicUrl,
          payload.value,
          app.log,
        );
        if (r.stored || r.lifecycle) app.log.info(r, "an Outlook notification stored");
      },
      [OUTLOOK_RENEW_JOB]: async () => {
        const r = await renewOutlookSubscriptions(database.db, config.inbox, config.publicUrl, app.log);
        if (r.renewed || r.recreated || r.failed) app.log.info(r, "Outlook subscriptions checked");
      },
      [ONEDRIVE_JOB]: onedriveHandler(config.inbox), // issue 24: a document's PDF saved to OneDrive
      [INSTAGRAM_REFRESH_JOB]: async () => {
        const r = await refreshInstagramTokens(database.db, config.inbox, app.log);
        if (r.refreshed || r.failed) app.log.info(r, "Instagram tokens refreshed");
      },
      [OVERDUE_SWEEP]: async () => {
        const n = await sweepOverdue(database.db);
        if (n) app.log.info({ overdue: n }, "invoices past their due date marked overdue");
      },
      [PRUNE_JOBS]: async () => {
        await pruneDone(database.db);
        await pruneAnnouncements(database.db); // issue 20 §4: the resources' change rows, after a day
      },
      [SANDBOX_SWEEP]: async () => {
        const n = await sweepSandboxes(database.db, sandboxFiles(createFileStore(config)));
        if (n) app.log.info({ removed: n }, "sandboxes past their 24 hours removed");
      },
      [LINK_EXPIRY_SWEEP]: async () => {
        const n = await sweepExpired(database.db);
        if (n) app.log.info({ expired: n }, "supplier discount links past their expiry marked expired");
      },
    },
    // Once per slot across every instance on the database (a list opened the morning after already says Overdue;
    // a discount link past its expiry reads Expired within ten minutes).
    schedules: [
      { name: OVERDUE_SWEEP, everyMs: HOUR },
      { name: LINK_EXPIRY_SWEEP, everyMs: 10 * 60_000 },
      { name: SANDBOX_SWEEP, everyMs: 10 * 60_000 },
      { name: PRUNE_JOBS, everyMs: 10 * 60_000 },
      { name: OUTLOOK_RENEW_JOB, everyMs: HOUR }, // issue 24: before a subscription's 4230 minutes run out
      { name: INSTAGRAM_REFRESH_JOB, everyMs: 24 * HOUR }, // issue 24: long-lived tokens, ten days before their 60 end
    ],
  });
  const deps: CommandDeps = {
    jobs,
    mailer,
    clock: () => new Date(),
    links: { publicUrl: config.publicUrl, baseDomain: config.baseDomain },
    disk: createFileStore(config),
    inbox: config.inbox, // issue 24
    log: app.log,
  };
  app.decorate("deps", deps);
  app.decorate("jobs", jobs);
  app.addHook("onReady", () => jobs.start());
  app.addHook("onClose", async () => {
    await jobs.stop();
    mailer.close?.();
  });
  await app.register(authPlugin, { config, db: database.db, mailer, jobs });
  await app.register(publicRoutes, { db: database.db });
  await app.register(roleAppRoutes, { db: database.db, config }); // issue 22: hand-off, manifests, service worker
  await app.register(publicOrderFormRoutes, { db: database.db });
  await app.register(posPublicRoutes, { db: database.db }); // issue 22: the e-receipt at /r/{token}
  await app.register(publicPartnerRoutes, { db: database.db });
  await app.register(platformRoutes, { db: database.db });
  await app.register(platformJobRoutes, { db: database.db, jobs }); // issue 20 §1: dead jobs, and a retry
  await app.register(accountRoutes, { db: database.db });
  await app.register(signupRoutes, { db: database.db });
  await app.register(sandboxRoutes, { db: database.db, files: createFileStore(config) }); // issue 21 §3: GET /demo
  await app.register(workspaceRoutes, { db: database.db });
  await app.register(documentPdfRoutes, { db: database.db });
  await app.register(reportPdfRoutes, { db: database.db }); // issue 12: GET /api/reports/{name}/pdf
  await app.register(storagePlugin, { prefix: "/storage/v1", config, db: database.db });
  await app.register(restRoutes, { db: database.db, maxRows: config.maxRows, database });
  await app.register(realtimeRoutes, { database }); // issue 12: the realtime channel (DESIGN §2.1)
  await app.register(calendarFeedRoutes, { db: database.db }); // issue 12: /api/calendar/<token>.ics
  await app.register(metaWebhookRoutes, { db: database.db, jobs, inbox: config.inbox }); // issue 24
  await app.register(inboxAttachmentRoutes, { db: database.db }); // issue 24: a message's file
  await app.register(outlookRoutes, { db: database.db, jobs, inbox: config.inbox, publicUrl: config.publicUrl }); // issue 24
  await app.register(instagramRoutes, { db: database.db, inbox: config.inbox, publicUrl: config.publicUrl }); // issue 24
  await registerSpa(app, config.webDist, config.baseDomain);
  return app;
}
