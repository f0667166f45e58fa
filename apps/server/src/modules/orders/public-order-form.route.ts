import { OrderSubmission } from "@workmetrics/domain/schemas/order-submission";
import type { FastifyInstance } from "fastify";
import { clientMeta } from "../../platform/auth/request.ts";
import type { Db } from "../../platform/db/database.ts";
import { notifyNewOrder } from "./notify.ts";
import { findForm, orderRecipients, publicForm, submitOrder } from "./order-form.store.ts";
import { limit, ORDER_FORM_LIMITS } from "./rate-limit.ts";

// Issue 10 §2: the public side of an order form, no sign-in. GET answers the form (workspace name and logo, products
// at the form's prices and minimums); POST takes an order, which arrives Received in the workspace's Orders. An
// unknown link answers 404 and a disabled one 410, both "This order form is no longer available".

// An order of 200 lines with long notes fits in a few KB; anything near this is not a person filling a form.
const BODY_LIMIT = 32 * 1024;

type Params = { token: string };

export async function publicOrderFormRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;

  app.get<{ Params: Params }>("/api/public/order-forms/:token", async (req, reply) => {
    const { ip } = clientMeta(req);
    await limit(db, reply, `order_form_view:${ip}`, ORDER_FORM_LIMITS.view, "Too many requests from your network.");
    const form = await findForm(db, req.params.token);
    return reply.header("cache-control", "no-store").send(await publicForm(db, form));
  });

  app.post<{ Params: Params }>("/api/public/order-forms/:token", { bodyLimit: BODY_LIMIT }, async (req, reply) => {
    const form = await findForm(db, req.params.token);
    const { ip } = clientMeta(req);
    await limit(db, reply, `order_form_ip:${ip}`, ORDER_FORM_LIMITS.submitPerIp, "Too many orders from your network.");
    await limit(
      db,
      reply,
      `order_form:${form.workspace_id}:${form.id}`,
      ORDER_FORM_LIMITS.submitPerForm,
      "This order form is taking too many orders right now.",
    );
    const input = OrderSubmission.parse(req.body ?? {});
    // The order and its notice to the owner and sales managers in one transaction (the outbox): the worker sends
    // it, retrying while the mail server refuses.
    const to = await orderRecipients(db, form.workspace_id);
    const order = await submitOrder(db, form, input, (tx, taken) =>
      notifyNewOrder(app.deps, tx, form, taken, input, to),
    );
    const { id: _id, ...answer } = order;
    return reply.code(201).send(answer);
  });
}
