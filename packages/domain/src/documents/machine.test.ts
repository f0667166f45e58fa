import { describe, expect, it } from "vitest";
import type { Member } from "../access.ts";
import { DEFAULT_ROLE_PERMISSIONS } from "../permissions.ts";
import { ROLE } from "../roles.ts";
import { TIERS } from "../tiers.ts";
import {
  type DocumentTypeDef,
  decideTransition,
  defineDocumentType,
  offeredActions,
  ownOnlyMessage,
  ownsDocument,
  type StatusColor,
  settleStatus,
  transitionMatrix,
} from "./machine.ts";

// Example types for the engine's own tests; the real declarations come with each document's module.
type Quote = { status: string; lines: number };
const quotation = defineDocumentType({
  type: "quotation",
  title: "Quotation",
  plural: "Quotations",
  statuses: {
    draft: { label: "Draft", color: "gray" },
    sent: { label: "Sent", color: "blue" },
    won: { label: "Won", color: "green" },
    lost: { label: "Lost", color: "red" },
    expired: { label: "Expired", color: "yellow" },
    cancelled: { label: "Cancelled", color: "red" },
  },
  transitions: [
    {
      action: "submit",
      label: "Send",
      from: ["draft"],
      to: "sent",
      permission: "quotation.submit",
      guard: (q: Quote) => (q.lines > 0 ? null : "Add a line before sending the quotation"),
    },
    { action: "mark_won", from: ["sent"], to: "won", permission: "quotation.update" },
    { action: "mark_lost", from: ["sent", "expired"], to: "lost", permission: "quotation.update", needsReason: true },
    { action: "expire", from: ["sent"], to: "expired", permission: "quotation.update" },
    { action: "cancel", from: ["draft", "sent"], to: "cancelled", permission: "quotation.cancel" },
  ],
});

const OPEN = ["to_deliver_and_bill", "to_deliver", "to_bill", "completed"] as const;
type Order = { status: string; delivered: boolean; billed: boolean };
const salesOrder = defineDocumentType({
  type: "sales_order",
  title: "Sales order",
  plural: "Sales orders",
  statuses: {
    draft: { label: "Draft", color: "gray" },
    to_deliver_and_bill: { label: "To Deliver and Bill", color: "cyan", adjective: "open" },
    to_deliver: { label: "To Deliver", color: "cyan", adjective: "open" },
    to_bill: { label: "To Bill", color: "yellow", adjective: "open" },
    completed: { label: "Completed", color: "green" },
    on_hold: { label: "On Hold", color: "yellow" },
    closed: { label: "Closed", color: "purple" },
    cancelled: { label: "Cancelled", color: "red" },
  },
  transitions: [
    { action: "submit", from: ["draft"], to: "to_deliver_and_bill", permission: "sales_order.submit" },
    {
      action: "hold",
      label: "Put on hold",
      from: ["to_deliver_and_bill", "to_deliver", "to_bill"],
      to: "on_hold",
      permission: "sales_order.update",
      needsReason: true,
    },
    { action: "resume", from: ["on_hold"], to: "to_deliver_and_bill", permission: "sales_order.update" },
    { action: "close", from: [...OPEN], to: "closed", permission: "sales_order.update", own: true },
    {
      action: "cancel",
      from: ["to_deliver_and_bill", "on_hold"],
      to: "cancelled",
      permission: "sales_order.cancel",
      guard: (o: Order) => (o.delivered ? "Cancel the delivery orders made from this sales order first" : null),
    },
  ],
  // From the figures, as quantities.ts will derive them.
  settle: (o: Order, to) => {
    if (!(OPEN as readonly string[]).includes(to)) return to;
    if (o.delivered && o.billed) return "completed";
    return o.delivered ? "to_bill" : o.billed ? "to_deliver" : "to_deliver_and_bill";
  },
});

const features = (slug: string) => TIERS.find((t) => t.slug === slug)?.features ?? [];
const role = (id: number, tier = "premium"): Member => ({
  kind: "member",
  permissions: DEFAULT_ROLE_PERMISSIONS[id] ?? [],
  features: features(tier),
});
const owner = role(ROLE.Owner);

describe("the quotation matrix (issue 10 §2)", () => {
  it("allows or refuses every (status, action) pair with a clerk's message", () => {
    expect(transitionMatrix(quotation, { doc: (status) => ({ status, lines: 1 }) })).toEqual({
      draft: {
        submit: "→ sent",
        mark_won: "A draft quotation cannot be marked won",
        mark_lost: "A draft quotation cannot be marked lost",
        expire: "A draft quotation cannot be expired",
        cancel: "→ cancelled",
      },
      sent: {
        submit: "A sent quotation cannot be sent",
        mark_won: "→ won",
        mark_lost: "→ lost",
        expire: "→ expired",
        cancel: "→ cancelled",
      },
      won: {
        submit: "A won quotation cannot be sent",
        mark_won: "A won quotation cannot be marked won",
        mark_lost: "A won quotation cannot be marked lost",
        expire: "A won quotation cannot be expired",
        cancel: "A won quotation cannot be cancelled",
      },
      lost: {
        submit: "A lost quotation cannot be sent",
        mark_won: "A lost quotation cannot be marked won",
        mark_lost: "A lost quotation cannot be marked lost",
        expire: "A lost quotation cannot be expired",
        cancel: "A lost quotation cannot be cancelled",
      },
      expired: {
        submit: "An expired quotation cannot be sent",
        mark_won: "An expired quotation cannot be marked won",
        mark_lost: "→ lost",
        expire: "An expired quotation cannot be expired",
        cancel: "An expired quotation cannot be cancelled",
      },
      cancelled: {
        submit: "A cancelled quotation cannot be sent",
        mark_won: "A cancelled quotation cannot be marked won",
        mark_lost: "A cancelled quotation cannot be marked lost",
        expire: "A cancelled quotation cannot be expired",
        cancel: "A cancelled quotation cannot be cancelled",
      },
    });
  });

  it("shows guards and reason prompts when asked", () => {
    const m = transitionMatrix(quotation, { doc: (status) => ({ status, lines: 0 }), reason: null });
    expect(m.draft.submit).toBe("Add a line before sending the quotation");
    expect(m.sent.mark_lost).toBe("Give a reason to mark it lost");
  });
});

describe("deciding one transition", () => {
  const sent: Quote = { status: "sent", lines: 2 };

  it("returns the transition and its target", () => {
    const d = decideTransition(quotation, sent, "mark_lost", owner, { reason: "Price too high" });
    expect(d).toMatchObject({ allowed: true, to: "lost", scope: "all", transition: { action: "mark_lost" } });
  });

  it("wants a reason that is more than spaces", () => {
    expect(decideTransition(quotation, sent, "mark_lost", owner, { reason: "  " })).toEqual({
      allowed: false,
      reason: "needs_reason",
      message: "Give a reason to mark it lost",
    });
  });

  it("asks access.ts about permission and tier, and says what was refused", () => {
    expect(decideTransition(quotation, sent, "cancel", role(ROLE.Driver))).toMatchObject({
      allowed: false,
      reason: "permission",
      permission: "quotation.cancel",
      message: "You do not have permission to cancel this quotation",
    });
    expect(decideTransition(quotation, sent, "cancel", role(ROLE.Salesperson))).toMatchObject({ allowed: true });
    expect(decideTransition(quotation, sent, "cancel", { kind: "anon" })).toMatchObject({ reason: "sign_in" });
    expect(decideTransition(quotation, sent, "cancel", { kind: "operator" })).toMatchObject({
      reason: "workspace_only",
    });
    const pickList = defineDocumentType({
      type: "delivery_instruction",
      title: "Delivery instruction",
      plural: "Delivery instructions",
      feature: "warehouse_tracking",
      statuses: { draft: { label: "Draft", color: "gray" }, released: { label: "Released", color: "blue" } },
      transitions: [{ action: "release", from: ["draft"], to: "released", permission: "delivery_instruction.release" }],
    });
    expect(decideTransition(pickList, { status: "draft" }, "release", role(ROLE.Owner, "lite"))).toMatchObject({
      allowed: false,
      reason: "tier",
      message: "Delivery instructions need the Pro tier. Upgrade to Pro to use warehouse tracking.",
    });
  });

  it("checks the status before permission, and the guard after it", () => {
    const driver = role(ROLE.Driver);
    expect(decideTransition(quotation, { status: "won", lines: 1 }, "cancel", driver).allowed).toBe(false);
    expect(decideTransition(quotation, { status: "won", lines: 1 }, "cancel", driver)).toMatchObject({
      reason: "status",
    });
    expect(decideTransition(quotation, { status: "draft", lines: 0 }, "submit", driver)).toMatchObject({
      reason: "permission",
      message: "You do not have permission to send this quotation",
    });
    expect(decideTransition(quotation, { status: "draft", lines: 0 }, "submit", owner)).toMatchObject({
      reason: "guard",
    });
  });

  it("refuses unknown actions and statuses without throwing", () => {
    expect(decideTransition(quotation, sent, "approve", owner)).toEqual({
      allowed: false,
      reason: "unknown_action",
      message: 'Quotations have no action "approve"',
    });
    expect(decideTransition(quotation, { status: "weird", lines: 1 }, "submit", owner)).toMatchObject({
      reason: "status",
      message: 'This quotation has an unknown status "weird"',
    });
  });
});

describe("settled statuses (a sales order's status follows its figures)", () => {
  const order = (status: string, delivered = false, billed = false): Order => ({ status, delivered, billed });

  it("lands a transition on the status the figures say", () => {
    expect(decideTransition(salesOrder, order("draft"), "submit", owner)).toMatchObject({ to: "to_deliver_and_bill" });
    expect(decideTransition(salesOrder, order("on_hold", true), "resume", owner)).toMatchObject({ to: "to_bill" });
    expect(decideTransition(salesOrder, order("draft", true, true), "submit", owner)).toMatchObject({
      to: "completed",
    });
    expect(settleStatus(salesOrder, order("to_deliver_and_bill", false, true), "to_deliver_and_bill")).toBe(
      "to_deliver",
    );
    expect(settleStatus(salesOrder, order("closed", true, true), "closed")).toBe("closed");
  });

  it("has a matrix too, with adjectives where labels read badly", () => {
    const m = transitionMatrix(salesOrder, { doc: (status) => order(status) });
    expect(m.to_bill).toEqual({
      submit: "An open sales order cannot be submitted",
      hold: "→ on_hold",
      resume: "An open sales order cannot be resumed",
      close: "→ closed",
      cancel: "An open sales order cannot be cancelled",
    });
    expect(m.on_hold.hold).toBe("An on hold sales order cannot be put on hold");
    expect(m.completed.close).toBe("→ closed");
    expect(transitionMatrix(salesOrder, { reason: null, doc: (s) => order(s) }).to_deliver.hold).toBe(
      "Give a reason to put it on hold",
    );
    expect(transitionMatrix(salesOrder, { doc: (s) => order(s, true) }).on_hold.cancel).toBe(
      "Cancel the delivery orders made from this sales order first",
    );
  });

  it("lets a member without the permission act on their own documents when the transition says so", () => {
    const seller = role(ROLE.Salesperson); // sales_order.create and .update only
    expect(decideTransition(salesOrder, order("to_bill"), "close", seller)).toMatchObject({ scope: "all" });
    const narrow: Member = { kind: "member", permissions: ["*.read"], features: features("premium") };
    expect(decideTransition(salesOrder, order("to_bill"), "close", narrow)).toMatchObject({
      allowed: true,
      scope: "own",
    });
    expect(decideTransition(salesOrder, order("to_bill"), "hold", narrow, { reason: "x" })).toMatchObject({
      reason: "permission",
      message: "You do not have permission to put this sales order on hold",
    });
  });

  it("throws when settle names an undeclared status", () => {
    const broken = defineDocumentType({
      ...salesOrder,
      type: "broken",
      settle: () => "nowhere" as "draft",
    });
    expect(() => decideTransition(broken, order("draft"), "submit", owner)).toThrow(
      'Document type "broken": settle gave "nowhere", which is not a declared status',
    );
  });
});

describe("offered actions (the buttons)", () => {
  it("lists what the status and the member allow, with a guard's reason to disable", () => {
    expect(offeredActions(quotation, { status: "draft", lines: 0 }, owner)).toEqual([
      { action: "submit", label: "Send", needsReason: false, blocked: "Add a line before sending the quotation" },
      { action: "cancel", label: "Cancel", needsReason: false, blocked: null },
    ]);
    expect(offeredActions(quotation, { status: "sent", lines: 1 }, role(ROLE.Driver))).toEqual([]);
    expect(offeredActions(quotation, { status: "sent", lines: 1 }, owner).map((a) => a.action)).toEqual([
      "mark_won",
      "mark_lost",
      "expire",
      "cancel",
    ]);
  });

  it("leaves out an action that does not apply to the document, though its guard still refuses it", () => {
    const bill = defineDocumentType({
      type: "bill",
      title: "Bill",
      plural: "Bills",
      statuses: { draft: { label: "Draft", color: "gray" }, open: { label: "Open", color: "yellow" } },
      transitions: [
        {
          action: "release",
          from: ["open"],
          to: "open",
          permission: "bill.release",
          applies: (doc: { status: string; held?: boolean }) => Boolean(doc.held),
          guard: (doc: { status: string; held?: boolean }) => (doc.held ? null : "Nothing holds this bill"),
        },
      ],
    });
    expect(offeredActions(bill, { status: "open", held: false }, owner)).toEqual([]);
    expect(offeredActions(bill, { status: "open", held: true }, owner).map((a) => a.action)).toEqual(["release"]);
    expect(decideTransition(bill, { status: "open", held: false }, "release", owner)).toMatchObject({
      allowed: false,
      message: "Nothing holds this bill",
    });
  });
});

// Issue 10 §2–§3: an action asking for inputs (a delivery handed over: who received it), a type's owner.
type Delivery = { status: string; header: Record<string, unknown> };
const delivery = defineDocumentType({
  type: "delivery_order",
  title: "Delivery order",
  plural: "Delivery orders",
  owner: { column: "driver_id", yours: "delivery orders assigned to you" },
  statuses: { draft: { label: "Draft", color: "gray" }, to_bill: { label: "To Bill", color: "yellow" } },
  transitions: [
    { action: "submit", from: ["draft"], to: "to_bill", permission: "delivery_order.submit" },
    {
      action: "complete",
      from: ["to_bill"],
      to: "to_bill",
      permission: "delivery_order.complete",
      own: true,
      guard: (d: Delivery) => (d.header.received_by ? "Already received" : null),
      inputs: [
        { field: "received_by", label: "Received by", kind: "text", required: true },
        { field: "received_at", label: "Received at", kind: "datetime" },
        { field: "driver_id", label: "Driver", kind: "user" },
      ],
    },
  ],
});

describe("inputs and owners", () => {
  const open: Delivery = { status: "to_bill", header: { driver_id: "AAAAAAAA-0000-4000-8000-000000000001" } };
  it("asks for a required input by its label, checks each kind, and gives them trimmed", () => {
    const ask = (values: Record<string, unknown>) => decideTransition(delivery, open, "complete", owner, { values });
    expect(ask({})).toMatchObject({
      allowed: false,
      reason: "needs_input",
      field: "received_by",
      message: "Give received by to complete it",
    });
    expect(ask({ received_by: "x".repeat(201) })).toMatchObject({
      message: "Received by is longer than 200 characters",
    });
    expect(ask({ received_by: "Tan", received_at: "soon" })).toMatchObject({
      message: "Received at must be a date and time",
    });
    expect(ask({ received_by: "Tan", driver_id: "7" })).toMatchObject({
      message: "Driver must be a user of this workspace",
    });
    expect(ask({ received_by: " Tan ", received_at: "2026-11-20T09:30:00+08:00" })).toMatchObject({
      allowed: true,
      values: { received_by: "Tan", received_at: "2026-11-20T01:30:00.000Z", driver_id: null },
    });
  });

  it("offers an action with inputs as a button that asks for them", () => {
    expect(offeredActions(delivery, open, owner)).toEqual([
      {
        action: "complete",
        label: "Complete",
        needsReason: false,
        blocked: null,
        inputs: delivery.transitions[1].inputs,
      },
    ]);
    // Without the permission it is the owner's alone (scope "own"), which the server checks against the owner column.
    const driver: Member = { kind: "member", permissions: [], features: [] };
    expect(decideTransition(delivery, open, "complete", driver, { values: { received_by: "Tan" } })).toMatchObject({
      allowed: true,
      scope: "own",
    });
  });

  it("names a member's own documents in the refusal and knows whose one is", () => {
    const d = delivery as never;
    expect(ownOnlyMessage(d, "complete")).toBe("You can only complete delivery orders assigned to you");
    expect(ownOnlyMessage(d, "read")).toBe("You can only read delivery orders assigned to you");
    expect(ownOnlyMessage(quotation as never, "mark_lost")).toBe("You can only mark your own quotations lost");
    expect(ownsDocument(d, open.header, "aaaaaaaa-0000-4000-8000-000000000001")).toBe(true);
    expect(ownsDocument(d, open.header, "aaaaaaaa-0000-4000-8000-000000000002")).toBe(false);
    expect(ownsDocument(d, {}, null)).toBe(false);
  });
});

describe("definitions are checked when they load", () => {
  const base: DocumentTypeDef<"draft" | "done"> = {
    type: "thing",
    title: "Thing",
    plural: "Things",
    statuses: { draft: { label: "Draft", color: "gray" }, done: { label: "Done", color: "green" } },
    transitions: [{ action: "submit", from: ["draft"], to: "done", permission: "thing.submit" }],
  };
  const bad = (patch: Record<string, unknown>) => () => defineDocumentType({ ...base, ...patch } as typeof base);
  const t = (patch: Record<string, unknown>) => [{ ...base.transitions[0], ...patch }];

  it("accepts a good one and lists its actions", () => {
    expect(defineDocumentType(base)).toMatchObject({ initial: "draft", statusNames: ["draft", "done"] });
    expect(defineDocumentType(base).actions).toEqual(["submit"]);
  });

  it("names the problem", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ type: "Thing" }, 'Document type "Thing": the type is a table name in snake_case'],
      [{ plural: " " }, "give a title and a plural"],
      [{ feature: "teleport" }, 'unknown tier feature "teleport"'],
      [{ statuses: {} }, "declare at least one status"],
      [
        { statuses: { ...base.statuses, done: { label: "Done", color: "orange" as StatusColor } } },
        'status "done" has colour "orange"; use one of cyan, yellow, blue, green, red, purple, gray (spec §4)',
      ],
      [{ statuses: { ...base.statuses, done: { label: "", color: "green" } } }, 'status "done" has no label'],
      [{ initial: "new" }, 'the initial status "new" is not declared'],
      [{ transitions: t({ from: ["drfat"] }) }, 'action "submit" starts from "drfat", which is not a declared status'],
      [{ transitions: t({ to: "finished" }) }, 'action "submit" goes to "finished", which is not a declared status'],
      [{ transitions: t({ from: [] }) }, 'action "submit" has no from-status'],
      [{ transitions: t({ action: "Submit" }) }, 'action "Submit" is not a snake_case verb'],
      [
        { transitions: [...base.transitions, { ...base.transitions[0], to: "draft" }] },
        'action "submit" is declared twice from "draft"',
      ],
      [{ transitions: t({ permission: "submit" }) }, 'action "submit" needs a permission like "thing.submit"'],
      [{ transitions: t({ action: "frobnicate" }) }, 'action "frobnicate" needs `past` for its refusal'],
    ];
    for (const [patch, message] of cases) expect(bad(patch)).toThrow(message);
    expect(defineDocumentType({ ...base, transitions: t({ action: "frobnicate", past: "frobbed" }) }).actions).toEqual([
      "frobnicate",
    ]);
  });
});
