import type { ReportColumn, ReportResult } from "@workmetrics/domain/reports";
import type { FastifyInstance } from "fastify";
import { bearerToken, NOT_AUTHENTICATED } from "../../platform/auth/guard.ts";
import { decodePayload } from "../../platform/auth/jwt.ts";
import type { Db, Tx } from "../../platform/db/database.ts";
import { RETRY_AFTER_SECONDS } from "../../platform/db/database-errors.ts";
import { today } from "../../platform/documents/store.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { fromDatabaseError, RestError } from "../../platform/rest/rest-error.ts";
import { callerFor, inCallerTransaction } from "../../platform/rest/transaction.ts";
import { amount, day, inLocale, printingLocale } from "../documents/pdf/format.ts";
import type { Cell, Column, Printable } from "../documents/pdf/layout.ts";
import { loadWorkspace } from "../documents/pdf/letterhead.ts";
import { renderPdf } from "../documents/pdf/render.ts";
import { runReport } from "./report.rpc.ts";

// Issue 12 "CSV and PDF export": GET /api/reports/{name}/pdf?{params} prints any registered report with the
// workspace's letterhead — its columns, rows (money grouped, dates in words) and totals — from the same run as the
// `report` command (runReport: the same access rule and parameter checks, so a refusal is the same 4xx). Parameters
// are the query string's, as the reports page's address carries them (ids as digits; the reports coerce them).

const TITLES: Record<string, string> = {
  gst_f5: "GST F5 Return",
  ar_ageing: "Accounts Receivable Ageing",
  ap_ageing: "Accounts Payable Ageing",
  profit_and_loss: "Profit and Loss",
};

export const reportTitle = (name: string): string =>
  TITLES[name] ??
  name
    .replace(/_/g, " ")
    .replace(/\b[a-z]/g, (c) => c.toUpperCase())
    .replace(/\bAnd\b/g, "and");

const SHORT = new Set(["account_code", "box", "sku", "month"]); // narrow text columns: codes and numbers
const WIDTH: Record<ReportColumn["kind"], number> = { text: 2, money: 1.25, date: 1.1, integer: 0.8 };

function cell(column: ReportColumn, value: unknown): Cell {
  if (value === null || value === undefined || value === "") return "";
  if (column.kind === "money") return amount(String(value));
  if (column.kind === "date") return day(String(value));
  return String(value);
}

export function reportPage(name: string, r: ReportResult, params: Record<string, string>, currency: string): Printable {
  const columns: Column[] = r.columns.map((c) => ({
    label: c.label,
    width: SHORT.has(c.key) ? 0.8 : WIDTH[c.kind],
    align: c.kind === "money" || c.kind === "integer" ? "right" : "left",
    wrap: c.kind === "text",
  }));
  // A section (P&L, balance sheet) is named on its first row only, as on the screen.
  const rows: Cell[][] = r.rows.map((row, i) =>
    r.columns.map((c) =>
      c.key === "section" && i > 0 && r.rows[i - 1].section === row.section ? "" : cell(c, row[c.key]),
    ),
  );
  const summed = (c: ReportColumn) => c.kind === "money" || c.kind === "integer";
  const hasTotals = r.columns.some((c, i) => i > 0 && c.kind === "money" && r.totals[c.key] !== undefined);
  if (hasTotals) {
    rows.push(r.columns.map((c, i) => (i === 0 ? "Total" : summed(c) ? cell(c, r.totals[c.key]) : "")));
  }
  const period = params.from && params.to ? `${day(params.from)} to ${day(params.to)}` : null;
  const asOf = params.as_of ? `As of ${day(params.as_of)}` : null;
  const filters = Object.entries(params)
    .filter(([k]) => !["from", "to", "as_of"].includes(k))
    .map(([k, v]) => `${k.replace(/_/g, " ")}: ${v}`);
  const title = reportTitle(name);
  const stamp = params.to ?? params.as_of ?? "";
  return {
    title,
    reference: period ?? asOf ?? title,
    status: null,
    watermark: null,
    party: { heading: "Report", name: title, lines: [period ?? asOf ?? "", ...filters].filter(Boolean) },
    facts: [
      ...(period ? ([["Period", period]] as Array<[string, string]>) : []),
      ...(asOf ? ([["Date", asOf.replace("As of ", "")]] as Array<[string, string]>) : []),
      ["Currency", currency],
      ["Rows", String(r.rows.length)],
    ],
    body: [{ kind: "table", columns, rows, empty: "Nothing was recorded in this period." }],
    filename: `${name}${stamp ? `-${stamp}` : ""}.pdf`,
  };
}

class SignedOut extends Error {}

export async function reportPdfRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  app.setErrorHandler((err, req, reply) => {
    if (err instanceof SignedOut) return reply.code(401).send(NOT_AUTHENTICATED);
    const known = fromDatabaseError(err);
    if (known) {
      if (known.status === 503) reply.header("retry-after", String(RETRY_AFTER_SECONDS));
      if (known.status >= 500) req.log.warn({ err }, "report PDF stopped by the database");
      return reply.code(known.status).send(known.body());
    }
    throw err;
  });

  app.get<{ Params: { name: string }; Querystring: Record<string, string> }>(
    "/api/reports/:name/pdf",
    async (req, reply) => {
      const token = bearerToken(req);
      const auth = token && decodePayload(token)?.role === "anon" ? null : await app.authGuard.authenticate(req);
      if (!auth) throw new SignedOut();
      const { download, ...params } = req.query;
      const printed = await inCallerTransaction(
        db,
        callerFor(auth, null, null, null),
        false,
        async (tx: Tx, caller: Caller) => {
          if (caller.kind !== "member" || !caller.workspaceId) {
            throw new RestError(403, "42501", "Reports belong to a workspace; sign in as a member of one");
          }
          const result = await runReport(tx, caller, req.params.name, params);
          const workspace = await loadWorkspace(tx, caller.workspaceId);
          // Issue 21 §1: the report's dates and amounts in the workspace's locale.
          return inLocale(await printingLocale(tx, caller.workspaceId), async () => {
            const page = reportPage(req.params.name, result, params, workspace.baseCurrency);
            page.facts.unshift(["Printed", day(await today(tx))]);
            return { pdf: await renderPdf(workspace.head, page), filename: page.filename };
          });
        },
      );
      return reply
        .code(200)
        .header("cache-control", "private, no-store")
        .header(
          "content-disposition",
          `${download !== undefined ? "attachment" : "inline"}; filename="${printed.filename.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
        )
        .type("application/pdf")
        .send(printed.pdf);
    },
  );
}
