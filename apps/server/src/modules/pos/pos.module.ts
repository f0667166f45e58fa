import { decide, type Requirement } from "@workmetrics/domain";
import type { Caller } from "../../platform/rest/access.ts";
import { memberOf, refusalError } from "../../platform/rest/access.ts";
import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import { registerPrinter } from "../documents/pdf/print-types.ts";
import {
  posFavouritesSet,
  posReceiptEmail,
  posRefund,
  posSale,
  posSessionClose,
  posSessionOpen,
  posZReport,
} from "./pos.rpc.ts";
import { orderView, zReport } from "./pos.views.ts";
import { receiptPdf, zReportPdf } from "./receipt.ts";

// Issue 22 "Point of sale" (Premium): the counter's commands, and the receipt and Z report printed at
// GET /api/documents/pos_order/{id}/pdf and /api/documents/pos_session/{id}/pdf for whoever may read them.

const READ_ORDERS: Requirement = {
  audience: "member",
  permission: "pos_order.read",
  feature: "pos",
  does: "print POS receipts",
};
const READ_SESSIONS: Requirement = {
  audience: "member",
  permission: "pos_session.read",
  feature: "pos",
  does: "print Z reports",
};

function need(caller: Caller, requirement: Requirement): void {
  const d = decide(memberOf(caller), requirement);
  if (!d.allowed) throw refusalError(d);
}

// Where the receipt's QR code points: set by the server at start (PUBLIC_URL), the same base e-mailed links use.
let publicUrl = "http://localhost";
export const setReceiptBase = (url: string): void => {
  publicUrl = url;
};

export function registerPos(): void {
  registerRpc(posSessionOpen, posSale, posRefund, posSessionClose, posZReport, posReceiptEmail, posFavouritesSet);
  registerPrinter("pos_order", async (tx, caller, id) => {
    need(caller, READ_ORDERS);
    const order = await orderView(tx, { ws: caller.workspaceId as string, id });
    const url = `${publicUrl.replace(/\/$/, "")}/r/${order.receipt_token}`;
    return { pdf: await receiptPdf(order, url), filename: `${order.number}.pdf` };
  });
  registerPrinter("pos_session", async (tx, caller, id) => {
    need(caller, READ_SESSIONS);
    const z = await zReport(tx, caller.workspaceId as string, id);
    return { pdf: await zReportPdf(z), filename: `Z-report-session-${z.session.id}.pdf` };
  });
}
