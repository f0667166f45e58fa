import { decide } from "@workmetrics/domain";
import { COMMANDS, type CommandAnswer } from "@workmetrics/domain/commands";
import { dec } from "@workmetrics/domain/documents/decimal";
import type { PostingRule } from "@workmetrics/domain/documents/postings";
import { REPORT_ACCESS } from "@workmetrics/domain/reports";
import { sql } from "drizzle-orm";
import { postJournal } from "../../../platform/documents/ledger.ts";
import { takeNumber, today, writeEvent } from "../../../platform/documents/store.ts";
import { memberOf, refusalError } from "../../../platform/rest/access.ts";
import { RestError } from "../../../platform/rest/rest-error.ts";
import { implement } from "../../../platform/rest/rpc/command.ts";
import { day } from "../../documents/pdf/format.ts";
import { f5Boxes } from "./gst-f5.report.ts";

// Issue 12 "files GST F5 for a quarter": POST /rest/v1/rpc/gst_f5_file {from, to} records the return (the boxes as
// they stand, who, when) and posts its settlement dated the period's last day: Dr 2200 GST Output Tax (box 6) /
// Cr 1300 GST Input Tax (box 7) / Cr 2210 GST Payable the net (box 8; a refund due posts on the debit side). A zero
// return is recorded without an entry. Whoever posts journals (journal_entry.create) and reads the financial
// reports files (finance managers, accounts, owners and admins; Premium). A period overlapping an earlier return is
// refused naming it, and so is a period that has not ended yet. One transaction: a refusal changes nothing.

export const GST_SETTLEMENT_RULE: PostingRule = {
  name: "gst_return",
  memo: "GST F5 settlement",
  legs: [
    { side: "debit", account: "2200", role: "output_tax", amount: "box6" },
    { side: "credit", account: "1300", role: "input_tax", amount: "box7" },
    { side: "credit", account: "2210", role: "payable", amount: "box8" },
  ],
};

type Filed = { id: number | string; period_from: string; period_to: string; filed_at: string };

export const gstF5File = implement(COMMANDS.gst_f5_file, {
  async run(tx, p, caller) {
    const readable = decide(memberOf(caller), REPORT_ACCESS.gst_f5);
    if (!readable.allowed) throw refusalError(readable);
    const ws = caller.workspaceId as string;
    const now = await today(tx);
    if (p.to >= now) {
      throw new RestError(
        422,
        "validation_failed",
        `The period ends on ${day(p.to)}: a GST return is filed once its period is over`,
      );
    }
    // One filing at a time per workspace, so two clerks cannot file overlapping periods side by side.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`gst_return:${ws}`}))`);
    const earlier = await tx.execute(sql`select id, period_from::text as period_from, period_to::text as period_to,
        filed_at::date::text as filed_at
      from gst_return where workspace_id = ${ws}::uuid and period_from <= ${p.to}::date and period_to >= ${p.from}::date
      order by period_from limit 1`);
    const clash = earlier.rows[0] as Filed | undefined;
    if (clash) {
      throw new RestError(
        409,
        "PT409",
        `The GST return for ${day(clash.period_from)} – ${day(clash.period_to)} was filed on ${day(clash.filed_at)}: a period is filed once`,
      );
    }
    const boxes = await f5Boxes(tx, ws, p.from, p.to);
    const inserted = await tx.execute(sql`insert into gst_return
        (workspace_id, period_from, period_to, box1, box2, box3, box4, box5, box6, box7, box8, filed_by)
      values (${ws}::uuid, ${p.from}::date, ${p.to}::date, ${boxes.box1}::numeric, ${boxes.box2}::numeric,
        ${boxes.box3}::numeric, ${boxes.box4}::numeric, ${boxes.box5}::numeric, ${boxes.box6}::numeric,
        ${boxes.box7}::numeric, ${boxes.box8}::numeric, ${caller.userId}::uuid)
      returning id`);
    const id = Number((inserted.rows[0] as { id: number | string }).id);
    let entryId: number | null = null;
    let number: string | null = null;
    if (!dec(boxes.box6).isZero() || !dec(boxes.box7).isZero()) {
      number = await takeNumber(tx, ws, "journal_entry", p.to);
      const rule = { ...GST_SETTLEMENT_RULE, memo: `GST F5 ${day(p.from)} – ${day(p.to)}` };
      entryId = await postJournal(tx, caller, { type: "gst_return", id, number, date: p.to }, rule, boxes);
      await tx.execute(
        sql`update gst_return set entry_id = ${entryId} where workspace_id = ${ws}::uuid and id = ${id}`,
      );
    }
    await writeEvent(tx, caller, {
      type: "gst_return",
      docId: id,
      action: "file",
      from: null,
      to: "filed",
      changes: { period: [p.from, p.to], ...boxes },
    });
    const row = await tx.execute(sql`select r.id, r.period_from::text as period_from, r.period_to::text as period_to,
        ${sql.join(
          [1, 2, 3, 4, 5, 6, 7, 8].map((b) => sql`${sql.identifier(`box${b}`)}::text as ${sql.identifier(`box${b}`)}`),
          sql`, `,
        )},
        r.entry_id, r.filed_by, r.filed_at
      from gst_return r where r.workspace_id = ${ws}::uuid and r.id = ${id}`);
    return { ...(row.rows[0] as CommandAnswer<"gst_f5_file">), id, entry_id: entryId, entry_number: number };
  },
});
