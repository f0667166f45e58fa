import { beforeAll, describe, expect, it } from "vitest";
import { act as actRaw, customer, type Doc, ok, products, read, rpc as rpcRaw } from "./documents-helpers.ts";
import type { Json } from "./http.ts";
import { api } from "./http.ts";
import { type Form, freshIp, guest, makeForm, submit, useIpBlock, viewForm } from "./orders-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// The commands' answers, read by the assertions below.
const rpc = async (email: string, fn: string, args: unknown) =>
  (await rpcRaw(email, fn, args)) as { status: number; body: Json };
const act = async (email: string, type: string, id: number, action: string, reason?: string) =>
  (await actRaw(email, type, id, action, reason)) as { status: number; body: Json };

// Issue 10 §2 "Orders and order forms": a guest orders through a workspace's public link (prices and minimums from
// the form, clear per-field errors, the link can be disabled); the order arrives Received in Orders, where staff
// confirm it into a sales order or reject it with a reason.

const ADMIN = "admin@demo.test";
const MANAGER = "manager@demo.test";
const SALES = "sales@demo.test";
const DRIVER = "driver@demo.test";
const PRO = "admin@pro.test";
const UNAVAILABLE = "This order form is no longer available";

let form: Form;

beforeAll(async () => {
  useIpBlock(1);
  form = await makeForm(ADMIN);
});

const placed = async (f: Form, qty: [string, string] = ["2", "5"]) => {
  const res = await submit(f.token, guest(f.items.map((i, n) => ({ product_id: i.product_id, qty: qty[n] }))));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { number: string; status: string; total: string; currency: string };
};

const findOrder = async (email: string, number: string): Promise<Doc> => {
  const res = await restFetch(email, `customer_order?number=eq.${number}&select=*,lines:customer_order_line(*)`);
  expect(res.status, res.text).toBe(200);
  return (res.body as Doc[])[0];
};

describe("the public order form", () => {
  it("shows the workspace, the products at the form's prices and minimums, and a token of 64 hex digits", async () => {
    expect(form.token).toMatch(/^[0-9a-f]{64}$/);
    const res = await viewForm(form.token);
    expect(res.status).toBe(200);
    expect(res.body.workspace.name).toBeTruthy();
    expect(res.body.title).toBe("Trade order form");
    expect(
      res.body.products.map((p: { product_id: number; price: string; min_qty: string }) => [
        p.product_id,
        Number(p.price),
        p.min_qty,
      ]),
    ).toEqual(form.items.map((i, n) => [i.product_id, Number(i.price), n === 0 ? "1.000" : "5.000"]));
    expect(res.body).not.toHaveProperty("workspace.id");
  });

  it("takes an order: Received with an ORD number, priced from the form whatever the request says", async () => {
    const body = guest([
      { product_id: form.items[0].product_id, qty: "2", unit_price: "0.01", price: "0.01" } as never,
      { product_id: form.items[1].product_id, qty: 5 },
    ]);
    const res = await submit(form.token, { ...body, total: "1.00" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.number).toMatch(/^ORD-\d{4}-\d{5}$/);
    expect(res.body.status).toBe("received");
    const order = await findOrder(ADMIN, res.body.number);
    expect(order.status).toBe("received");
    expect(order.company_id).toBeNull();
    expect(order.customer_name).toBe("Mei Ling Tan");
    expect(order.customer_email).toBe("mei.ling@tan-trading.example");
    expect(order.delivery_address).toContain("Anson Road");
    expect(order.notes).toBe("Loading bay closes at 5 pm");
    expect(order.lines.map((l) => [l.qty, Number(l.unit_price)])).toEqual([
      ["2.000", Number(form.items[0].price)],
      ["5.000", Number(form.items[1].price)],
    ]);
    expect(order.subtotal).toBe((2 * Number(form.items[0].price) + 5 * Number(form.items[1].price)).toFixed(2));
    expect(res.body.total).toBe(order.total);
  });

  it("answers each bad field with its own message, and takes nothing", async () => {
    const [a, b] = form.items;
    const before = (await restFetch(ADMIN, "customer_order?select=id")).body as unknown[];
    const res = await submit(form.token, {
      ...guest([
        { product_id: a.product_id, qty: "1.2345" },
        { product_id: b.product_id, qty: "-1" },
      ]),
      name: " ",
      email: "not-an-email",
      delivery_address: "",
    });
    expect(res.status).toBe(422);
    const fields = Object.fromEntries(
      (res.body.details as Array<{ field: string; message: string }>).map((d) => [d.field, d.message]),
    );
    expect(fields).toMatchObject({
      name: "Your name is required",
      email: "Enter a valid e-mail address",
      delivery_address: "Delivery address is required",
      "items.0.qty": "Enter a quantity such as 2 or 1.5 (at most 3 decimals)",
      "items.1.qty": "Enter a quantity such as 2 or 1.5 (at most 3 decimals)",
    });
    const after = (await restFetch(ADMIN, "customer_order?select=id")).body as unknown[];
    expect(after.length).toBe(before.length);
  });

  it("refuses a quantity below the product's minimum, a product not on the form, and an empty order", async () => {
    const [a, b] = form.items;
    const below = await submit(form.token, guest([{ product_id: b.product_id, qty: "4" }]));
    expect(below.status).toBe(422);
    expect(below.body.details[0].field).toBe("items.0.qty");
    expect(below.body.details[0].message).toMatch(/^The minimum for .+ is 5$/);

    const other = (await products(ADMIN, 5)).find((p) => !form.items.some((i) => i.product_id === p.id));
    const unknown = await submit(form.token, guest([{ product_id: other!.id, qty: "1" }]));
    expect(unknown.status).toBe(422);
    expect(unknown.body.details).toEqual([
      { field: "items.0.product_id", message: "This product is not on the order form" },
    ]);

    const none = await submit(form.token, guest([{ product_id: a.product_id, qty: "" }]));
    expect(none.status).toBe(422);
    expect(none.body.details).toEqual([{ field: "items", message: "Enter a quantity for at least one product" }]);
  });

  it("refuses an oversized body before reading it", async () => {
    const res = await submit(
      form.token,
      guest([{ product_id: form.items[0].product_id, qty: "1" }], { note: "x".repeat(40_000) }),
    );
    expect(res.status).toBe(413);
    expect(JSON.stringify(res.body)).not.toMatch(/at .+\.ts/);
  });

  it("a disabled, unknown or malformed link is no longer available, never an error page", async () => {
    const closed = await makeForm(ADMIN, { title: "Closed form" });
    const off = await restFetch(ADMIN, `order_form?id=eq.${closed.id}`, {
      method: "PATCH",
      body: JSON.stringify({ active: false }),
    });
    expect(off.status, off.text).toBeLessThan(300);
    for (const [token, status] of [
      [closed.token, 410],
      ["0".repeat(64), 404],
      ["not-a-token", 404],
    ] as const) {
      const seen = await viewForm(token);
      expect(seen.status).toBe(status);
      expect(seen.body).toEqual({ code: "order_form_unavailable", message: UNAVAILABLE });
      const sent = await submit(token, guest([{ product_id: closed.items[0].product_id, qty: "1" }]));
      expect(sent.status).toBe(status);
      expect(sent.body.message).toBe(UNAVAILABLE);
    }
  });

  it("staff cannot set the token; another workspace's form shows only its own workspace and products", async () => {
    const pro = await makeForm(PRO, { title: "Pro form" });
    const view = await viewForm(pro.token);
    expect(view.status).toBe(200);
    const demoView = await viewForm(form.token);
    expect(view.body.workspace.name).not.toBe(demoView.body.workspace.name);
    const demoIds = new Set(form.items.map((i) => i.product_id));
    expect(view.body.products.some((p: { product_id: number }) => demoIds.has(p.product_id))).toBe(false);
    // A demo product sent to the pro form is not on it.
    const cross = await submit(pro.token, guest([{ product_id: form.items[0].product_id, qty: "1" }]));
    expect(cross.status).toBe(422);
    // Pro's order is not among demo's, and demo's not readable by pro.
    // Numbers are per workspace (both may have ORD-…-00001): ids tell the orders apart.
    const order = await findOrder(PRO, (await placed(pro, ["1", "5"])).number);
    expect((await restFetch(ADMIN, `customer_order?id=eq.${order.id}`)).body).toEqual([]);
    const mine = await findOrder(ADMIN, (await placed(form)).number);
    expect((await restFetch(PRO, `customer_order?id=eq.${mine.id}`)).body).toEqual([]);
    // The token is the database's: a client's is not taken.
    const res = await restFetch(ADMIN, "order_form", {
      method: "POST",
      headers: { prefer: "return=representation" },
      body: JSON.stringify({ title: "Chosen token", token: "a".repeat(64) }),
    });
    expect(res.status).toBeGreaterThanOrEqual(201);
    if (res.status === 201) expect((res.body as Array<{ token: string }>)[0].token).not.toBe("a".repeat(64));
  });
});

describe("orders in the workspace", () => {
  it("a received order is confirmed into a sales order with its lines, once a customer is chosen", async () => {
    const sent = await placed(form);
    const order = await findOrder(ADMIN, sent.number);
    const refused = await rpc(SALES, "document_convert", { type: "customer_order", id: order.id, to: "sales_order" });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("Choose the customer this order is for before confirming it");

    // Confirming by hand would leave a confirmed order without its sales order: the page offers Reject, not Confirm.
    const byHand = await act(SALES, "customer_order", order.id, "confirm");
    expect(byHand.status).toBe(409);
    expect(byHand.body.message).toBe("Confirm an order by creating its sales order");
    const offered = await rpc(SALES, "document_actions", { type: "customer_order", id: order.id });
    expect(offered.body.actions.map((a: { action: string }) => a.action)).toEqual(["reject"]);

    const company = await customer(ADMIN);
    const saved = await ok(SALES, "document_save", {
      type: "customer_order",
      id: order.id,
      header: { company_id: company },
      lines: order.lines.map((l) => ({ product_id: l.product_id, qty: l.qty, unit_price: l.unit_price })),
    });
    expect(saved.status).toBe("received");
    expect(saved.number).toBe(sent.number);
    expect(saved.customer_name).toBe("Mei Ling Tan");

    const so = await ok(SALES, "document_convert", { type: "customer_order", id: order.id, to: "sales_order" });
    expect(so.status).toBe("draft");
    expect(so.company_id).toBe(company);
    expect(so.source_type).toBe("customer_order");
    expect(so.lines.map((l) => [l.qty, l.unit_price, l.source_line_id])).toEqual(
      saved.lines.map((l) => [l.qty, l.unit_price, l.id]),
    );
    expect((await read(ADMIN, "customer_order", order.id)).status).toBe("confirmed");
    const again = await rpc(SALES, "document_convert", { type: "customer_order", id: order.id, to: "sales_order" });
    expect(again.status).toBe(409);
  });

  it("the form's customer comes with the order; a manager confirms it straight away", async () => {
    const company = await customer(ADMIN);
    const forCustomer = await makeForm(ADMIN, { title: "For one customer", company_id: company });
    expect((await viewForm(forCustomer.token)).body.customer).toBeTruthy();
    const sent = await placed(forCustomer);
    const order = await findOrder(MANAGER, sent.number);
    expect(order.company_id).toBe(company);
    const so = await ok(MANAGER, "document_convert", { type: "customer_order", id: order.id, to: "sales_order" });
    expect(so.lines).toHaveLength(2);
  });

  it("rejecting needs a reason; the matrix answers every action from every status", async () => {
    const order = await findOrder(ADMIN, (await placed(form)).number);
    const noReason = await act(SALES, "customer_order", order.id, "reject");
    expect(noReason.status).toBe(422);
    expect(noReason.body.message).toBe("Give a reason to reject the order (the customer may be told)");
    const rejected = await act(SALES, "customer_order", order.id, "reject", "Out of delivery area");
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(rejected.body.status).toBe("rejected");
    for (const [action, message] of [
      ["reject", "A rejected order cannot be rejected"],
      ["confirm", "A rejected order cannot be confirmed"],
    ] as const) {
      const res = await act(ADMIN, "customer_order", order.id, action, "again");
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(message);
    }
    const convert = await rpc(ADMIN, "document_convert", { type: "customer_order", id: order.id, to: "sales_order" });
    expect(convert.status).toBe(409);
    expect(convert.body.message).toBe("Only a received order can be made into a sales order; this one is rejected");
  });

  it("a driver may not confirm; another workspace cannot see, confirm or reject it", async () => {
    const order = await findOrder(ADMIN, (await placed(form)).number);
    const driver = await rpc(DRIVER, "document_convert", { type: "customer_order", id: order.id, to: "sales_order" });
    expect(driver.status).toBe(403);
    for (const res of [
      await rpc(PRO, "document_convert", { type: "customer_order", id: order.id, to: "sales_order" }),
      await act(PRO, "customer_order", order.id, "reject", "not ours"),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(`There is no order ${order.id} in this workspace`);
    }
    expect((await read(ADMIN, "customer_order", order.id)).status).toBe("received");
  });

  it("tells the owner by e-mail of a new order", async () => {
    const sent = await placed(form);
    const owner = "owner@demo.test";
    let mails: Array<{ subject: string; text: string }> = [];
    for (let i = 0; i < 20 && !mails.some((m) => m.subject.includes(sent.number)); i++) {
      const res = await api(`/dev/mailbox?format=json&to=${encodeURIComponent(owner)}`);
      mails = res.status === 200 ? (res.body as typeof mails) : [];
      if (!mails.some((m) => m.subject.includes(sent.number))) await new Promise((r) => setTimeout(r, 100));
    }
    const mail = mails.find((m) => m.subject.includes(sent.number));
    expect(mail?.subject).toBe(`New order ${sent.number} from Mei Ling Tan, Tan Trading`);
    expect(mail?.text).toContain("/dashboard/orders/");
  });
});

describe("rate limits", () => {
  it("answers 429 with Retry-After after 10 orders from one address in 10 minutes", async () => {
    const ip = freshIp();
    const bad = guest([], { name: "" });
    for (let i = 0; i < 10; i++) expect((await submit(form.token, bad, ip)).status).toBe(422);
    const over = await submit(form.token, guest([{ product_id: form.items[0].product_id, qty: "1" }]), ip);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(over.body.message).toMatch(/^Too many orders from your network\. Please try again in \d+ minutes?\.$/);
    // Another address still orders.
    expect((await submit(form.token, guest([{ product_id: form.items[0].product_id, qty: "1" }]))).status).toBe(201);
  });

  it("answers 429 after 60 orders on one form in an hour, from any addresses", async () => {
    const busy = await makeForm(ADMIN, { title: "Busy form" });
    const bad = guest([], { name: "" });
    for (let i = 0; i < 60; i++) expect((await submit(busy.token, bad)).status).toBe(422);
    const over = await submit(busy.token, guest([{ product_id: busy.items[0].product_id, qty: "1" }]));
    expect(over.status).toBe(429);
    expect(over.body.message).toMatch(/^This order form is taking too many orders right now\./);
    expect((await placed(form)).status).toBe("received");
  });
});

describe("order_form_save", () => {
  it("saves a form with its products in one go, replaces them on edit, and refuses a product twice", async () => {
    const catalog = await products(ADMIN, 3);
    const made = await rpc(ADMIN, "order_form_save", {
      form: { title: "Saved at once", active: true },
      items: catalog.slice(0, 2).map((p) => ({ product_id: p.id, price: p.price, min_qty: "2" })),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.token).toMatch(/^[0-9a-f]{64}$/);
    const edited = await rpc(ADMIN, "order_form_save", {
      id: made.body.id,
      form: { title: "Saved again", active: true },
      items: [{ product_id: catalog[2].id, price: "9.90", min_qty: "1" }],
    });
    expect(edited.status).toBe(200);
    const view = await viewForm(made.body.token);
    expect(view.body.title).toBe("Saved again");
    expect(view.body.products.map((p: { product_id: number; price: string }) => [p.product_id, p.price])).toEqual([
      [catalog[2].id, "9.9000"],
    ]);
    const twice = await rpc(ADMIN, "order_form_save", {
      id: made.body.id,
      form: { title: "Twice" },
      items: [0, 1].map(() => ({ product_id: catalog[0].id, price: "1" })),
    });
    expect(twice.status).toBe(422);
    expect(twice.body.details).toEqual([
      { field: "items.1.product_id", message: "This product is already on the form" },
    ]);
    expect((await viewForm(made.body.token)).body.title).toBe("Saved again");
    const noTitle = await rpc(ADMIN, "order_form_save", { form: { title: " " }, items: [] });
    expect(noTitle.status).toBe(422);
    expect(noTitle.body.details[0].field).toBe("form.title");
    expect((await rpc(DRIVER, "order_form_save", { form: { title: "Driver's" }, items: [] })).status).toBe(403);
    expect((await rpc(PRO, "order_form_save", { id: made.body.id, form: { title: "Theirs" }, items: [] })).status).toBe(
      404,
    );
  });
});
