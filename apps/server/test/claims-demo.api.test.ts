import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { inRequest } from "../src/platform/db/database.ts";
import { seedClaims } from "../src/platform/db/demo-claims.ts";
import { rpc } from "./documents-helpers.ts";
import { ownServer } from "./own-server-helpers.ts";

// Issue 12 demo: seedClaims (run by the demo seed after trading) on the basic seed's demo workspace — two projects,
// the fit-out three claims in (certified; paid, paid, partly paid) with a variation and a draft, the clinic claimed
// to 100% with the first half of its retention released; retention held on both; every claim's entry balances.

const own = ownServer({}, 300_000);

beforeAll(async () => {
  await inRequest(own.db, { workspaceId: own.ws, userId: null, role: "authenticated" }, (tx) =>
    seedClaims(tx, own.ws, "demo"),
  );
}, 600_000);

describe("demo progressive claims", () => {
  it("two projects with claims in different stages and retention held", async () => {
    const claims = await own.q<{ project: string; kind: string; status: string; certified: boolean }>(sql`
      select p.code as project, c.kind, c.status, c.certified_amount is not null as certified
      from progressive_claim c join project p on p.workspace_id = c.workspace_id and p.id = c.project_id
      where c.workspace_id = ${own.ws}::uuid order by p.code, c.id`);
    expect(claims.filter((c) => c.project === "PRJ-MBFO").map((c) => [c.kind, c.status, c.certified])).toEqual([
      ["progress", "paid", true],
      ["progress", "paid", true],
      ["progress", "partly_paid", true],
      ["progress", "draft", false],
    ]);
    expect(claims.filter((c) => c.project === "PRJ-TPYC").map((c) => [c.kind, c.status])).toEqual([
      ["progress", "paid"],
      ["progress", "paid"],
      ["release", "certified"],
    ]);
    const schedule = await rpc("manager@demo.test", "report", { name: "retention_schedule" });
    expect(schedule.status, schedule.text).toBe(200);
    const rows = (schedule.body as { rows: Array<Record<string, string>> }).rows;
    expect(rows.map((r) => r.project?.split(" ")[0])).toEqual(["PRJ-MBFO", "PRJ-TPYC"]);
    for (const r of rows) expect(Number(r.balance)).toBeGreaterThan(0);
    const clinic = rows[1];
    expect(Number(clinic.released)).toBeCloseTo(Number(clinic.held) / 2, 2);
    const unbalanced = await own.q<{ n: number }>(sql`select count(*)::int as n from (
        select e.id from journal_entry e join journal_line l on l.workspace_id = e.workspace_id and l.entry_id = e.id
        where e.workspace_id = ${own.ws}::uuid and e.source_type = 'progressive_claim'
        group by e.id having sum(l.debit) <> sum(l.credit)) x`);
    expect(unbalanced[0].n).toBe(0);
  });
});
