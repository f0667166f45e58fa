import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { clientMeta } from "../../platform/auth/request.ts";
import { type Db, inRequest, type Tx } from "../../platform/db/database.ts";
import { HttpError } from "../../platform/http/errors.ts";
import type { CommandDeps } from "../../platform/jobs/deps.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { limit, type Window } from "../orders/rate-limit.ts";
import { Answer, answerForm, unanswerable } from "./discount-form.store.ts";
import { findLink, viewForms } from "./discount-form.view.ts";
import { sendPartnerMail } from "./mail.ts";
import { registrationRecipients, registrationWorkspace, submitRegistration } from "./registration.store.ts";

// Issue 11: the public side of supplier discount forms (/api/public/supplier-discount-forms/:token: the request,
// then Confirm or Reject with a name and note) and of project registrations (/api/public/project-registrations/
// :slug: the workspace whose address the page is on, then the registration). No sign-in; rate-limited per IP in the
// order forms' fixed windows; 32 KB bodies. A dead link answers 410 in words, an answered one 409.

const BODY_LIMIT = 32 * 1024;

export const PARTNER_LIMITS = {
  view: { max: 300, windowSeconds: 600 },
  answerPerIp: { max: 20, windowSeconds: 600 },
  registerPerIp: { max: 10, windowSeconds: 600 },
  registerPerWorkspace: { max: 200, windowSeconds: 3600 },
} as const satisfies Record<string, Window>;

// The stores refuse in the REST engine's error shape; these routes answer in the server's ({code, message, details}).
async function publicly<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof RestError) throw new HttpError(err.status, err.code, err.message, err.details ?? undefined);
    throw err;
  }
}

const guest = (workspaceId: string): Caller => ({
  kind: "anon",
  userId: null,
  workspaceId,
  permissions: [],
  features: [],
  isOperator: false,
});

export async function publicPartnerRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  const { deps } = app;

  const view = (ws: string, id: number) =>
    inRequest(db, { workspaceId: ws, userId: null, role: "anon" }, async (tx) => (await viewForms(tx, ws, [id]))[0]);

  app.get<{ Params: { token: string } }>("/api/public/supplier-discount-forms/:token", async (req, reply) => {
    const { ip } = clientMeta(req);
    await limit(db, reply, `partner_view:${ip}`, PARTNER_LIMITS.view, "Too many requests from your network.");
    const link = await findLink(db, req.params.token);
    const form = await view(link.workspace_id, link.id);
    const dead = unanswerable(form as never, link.workspace_name);
    if (dead && dead.status === 410) throw new HttpError(410, dead.code, dead.message);
    const { id: _id, ...shown } = form;
    return reply.header("cache-control", "no-store").send(shown);
  });

  app.post<{ Params: { token: string } }>(
    "/api/public/supplier-discount-forms/:token",
    { bodyLimit: BODY_LIMIT },
    async (req, reply) => {
      const { ip } = clientMeta(req);
      await limit(db, reply, `partner_answer:${ip}`, PARTNER_LIMITS.answerPerIp, "Too many answers from your network.");
      const link = await findLink(db, req.params.token);
      const input = Answer.parse(req.body ?? {});
      // The answer and the notice to whoever sent the form in one transaction (the outbox); who that is, is read
      // first by the server (the guest may not read the team).
      const sender = await answerRecipient(db, link.workspace_id, link.id);
      const answered = await publicly(() =>
        inRequest(db, { workspaceId: link.workspace_id, userId: null, role: "anon" }, async (tx) => {
          const form = await answerForm(tx, guest(link.workspace_id), link.id, input, link.workspace_name);
          await notifyAnswer(deps, tx, link.workspace_id, form, sender);
          return form;
        }),
      );
      return reply.send({ status: answered.status, responder_name: input.name });
    },
  );

  app.get<{ Params: { slug: string } }>("/api/public/project-registrations/:slug", async (req, reply) => {
    const { ip } = clientMeta(req);
    await limit(db, reply, `partner_view:${ip}`, PARTNER_LIMITS.view, "Too many requests from your network.");
    const { id: _id, ...w } = await registrationWorkspace(db, req.params.slug);
    return reply.header("cache-control", "no-store").send({ workspace: w });
  });

  app.post<{ Params: { slug: string } }>(
    "/api/public/project-registrations/:slug",
    { bodyLimit: BODY_LIMIT },
    async (req, reply) => {
      const { ip } = clientMeta(req);
      await limit(
        db,
        reply,
        `registration_ip:${ip}`,
        PARTNER_LIMITS.registerPerIp,
        "Too many registrations from your network.",
      );
      const w = await registrationWorkspace(db, req.params.slug);
      await limit(
        db,
        reply,
        `registration:${w.id}`,
        PARTNER_LIMITS.registerPerWorkspace,
        "This workspace is taking too many registrations right now.",
      );
      const to = await registrationRecipients(db, w.id);
      const saved = await publicly(() =>
        submitRegistration(db, w, req.body, (tx, reg) => notifyRegistration(deps, tx, w, reg, to)),
      );
      return reply.code(201).send({ reference: `REG-${saved.id}`, status: saved.status });
    },
  );
}

type AnswerRecipient = { email: string | null; name: string; supplier: string } | undefined;

// Who sent the form (their address, the workspace's and the supplier's names), read by the server.
async function answerRecipient(db: Db, ws: string, formId: number): Promise<AnswerRecipient> {
  const res = await db.execute(
    sql`select a.email, w.name, c.name as supplier from supplier_discount_form f
      join workspace w on w.id = f.workspace_id
      join company c on c.workspace_id = f.workspace_id and c.id = f.company_id
      left join auth_user a on a.id = f.created_by
      where f.workspace_id = ${ws}::uuid and f.id = ${formId}`,
  );
  return res.rows[0] as AnswerRecipient;
}

// Staff who sent a form hear the supplier's answer (queued in the answer's transaction).
async function notifyAnswer(
  deps: CommandDeps,
  tx: Tx,
  ws: string,
  form: Record<string, unknown>,
  row: AnswerRecipient,
) {
  if (!row?.email) return;
  await sendPartnerMail(deps, tx, ws, {
    to: row.email,
    fromName: row.name,
    subject: `${row.supplier} ${form.status} supplier discount form ${form.id}`,
    paragraphs: [
      `${form.responder_name} of ${row.supplier} ${form.status} the discount you asked for.`,
      ...(form.responder_note ? [`Note: ${form.responder_note}`] : []),
    ],
  });
}

async function notifyRegistration(
  deps: CommandDeps,
  tx: Tx,
  w: { id: string; name: string },
  reg: Record<string, unknown>,
  to: string[],
) {
  for (const address of to) {
    await sendPartnerMail(deps, tx, w.id, {
      to: address,
      fromName: w.name,
      subject: `New project registration: ${reg.project_name} for ${reg.end_customer}`,
      paragraphs: [
        `${reg.contact_name} (${reg.contact_email}) registered "${reg.project_name}" for ${reg.end_customer}.`,
        ...(reg.duplicate_of_id ? [`It may duplicate registration ${reg.duplicate_of_id}.`] : []),
        "Review it under Projects → Project registrations.",
      ],
    });
  }
}
