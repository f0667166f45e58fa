import { describe, expect, it } from "vitest";
import { mailboxTo } from "./auth-helpers.ts";
import { api, baseUrl, type Json } from "./http.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 11 "Project registrations": a reseller registers an upcoming project on the workspace's public page
// without an account (the workspace is the one whose address the page is on, here by its slug); bad input is
// refused per field and nothing is stored; a registration with the same end customer and project as an earlier
// one is flagged; staff approve it into a project (linking or making the company) or reject it with a reason, and
// the registrant is e-mailed; per-network rate limit.

const MANAGER = "manager@demo.test";
const SALES = "sales@demo.test";
const WAREHOUSE = "warehouse@demo.test";
const PRO = "admin@pro.test";

let ip = 0;
const nextIp = () => `10.88.${Math.floor(++ip / 250)}.${ip % 250}`;
const register = (body: unknown, slug = "demo", from = nextIp()) =>
  api(`/api/public/project-registrations/${slug}`, {
    method: "POST",
    json: body,
    headers: { "x-forwarded-for": from },
  });
const rpc = async (email: string, fn: string, args: unknown) => {
  const res = await restFetch(email, `rpc/${fn}`, { method: "POST", body: JSON.stringify(args) });
  return { status: res.status, body: res.body as Json, text: res.text };
};

const unique = () => Math.random().toString(36).slice(2, 8);
const registration = (extra: Record<string, unknown> = {}) => ({
  end_customer: `Marina Towers ${unique()} Pte Ltd`,
  project_name: "Level 12 office fit-out",
  site: "1 Marina Boulevard",
  expected_value: "185000.00",
  products_of_interest: "Steel partition frames, 40 fire doors",
  expected_close_date: "2026-09-30",
  contact_name: "Aisha Rahman",
  contact_company: "Rahman Interiors (reseller)",
  contact_email: `aisha.${unique()}@rahman.example`,
  contact_phone: "+65 9123 4567",
  ...extra,
});

const find = async (reference: string) => {
  const id = Number(reference.replace("REG-", ""));
  const res = await restFetch(MANAGER, `project_registration?id=eq.${id}&select=*`);
  expect(res.status, res.text).toBe(200);
  return (res.body as Json[])[0];
};

describe("the public registration page", () => {
  it("names the workspace; one without projects (Lite) or unknown takes none", async () => {
    const demo = await api("/api/public/project-registrations/demo", { headers: { "x-forwarded-for": nextIp() } });
    expect(demo.status).toBe(200);
    expect(demo.body.workspace.name).toBeTruthy();
    expect(demo.body.workspace).not.toHaveProperty("id");
    for (const slug of ["lite", "no-such-workspace", "BAD SLUG"]) {
      const res = await api(`/api/public/project-registrations/${encodeURIComponent(slug)}`, {
        headers: { "x-forwarded-for": nextIp() },
      });
      expect(res.status, slug).toBe(404);
      expect(res.body.message).toMatch(/does not take project registrations/);
    }
  });

  it("refuses bad input on each field and stores nothing", async () => {
    const before = await restFetch(MANAGER, "project_registration?select=id", { headers: { prefer: "count=exact" } });
    const res = await register(
      registration({
        end_customer: " ",
        contact_email: "not-an-address",
        expected_value: "-5",
        expected_close_date: "2026-02-30",
      }),
    );
    expect(res.status).toBe(422);
    const fields = (res.body.details as Json[]).map((d) => d.field).sort();
    expect(fields).toEqual(["contact_email", "end_customer", "expected_close_date", "expected_value"]);
    const after = await restFetch(MANAGER, "project_registration?select=id", { headers: { prefer: "count=exact" } });
    expect(after.headers.get("content-range")).toBe(before.headers.get("content-range"));
  });

  it("refuses a body over 32 KB", async () => {
    const res = await register(registration({ note: "x".repeat(40_000) }));
    expect(res.status).toBe(413);
  });

  it("takes a registration, Submitted, and tells the owner and sales managers", async () => {
    const body = registration();
    // What only staff decide is not taken from the request.
    const res = await register({ ...body, status: "approved", company_id: 1, project_id: 1, duplicate_of_id: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({ reference: expect.stringMatching(/^REG-\d+$/), status: "submitted" });
    const row = await find(res.body.reference);
    expect(row).toMatchObject({
      status: "submitted",
      end_customer: body.end_customer,
      expected_value: "185000.00",
      contact_email: body.contact_email,
      duplicate_of_id: null,
      company_id: null,
      project_id: null,
    });
    const mail = await mailboxTo(baseUrl(), MANAGER, (m) => m.some((x) => x.subject.includes(body.end_customer)));
    expect(mail.some((m) => m.subject.includes(body.end_customer))).toBe(true);
  });

  it("flags a second registration of the same end customer and project, whatever the case and spaces", async () => {
    const first = registration();
    const a = await register(first);
    const b = await register(
      registration({
        end_customer: first.end_customer.toUpperCase().replaceAll(" ", "  "),
        project_name: " level 12 OFFICE fit-out",
      }),
    );
    expect(b.status).toBe(201);
    const dup = await find(b.body.reference);
    expect(dup.duplicate_of_id).toBe(Number(a.body.reference.replace("REG-", "")));
  });

  it("limits registrations per network (429)", async () => {
    const from = "10.89.0.1";
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await register({}, "demo", from)).status);
    expect(statuses.slice(0, 10).every((s) => s === 422)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe("staff review", () => {
  it("approve makes the company and the project, and e-mails the registrant", async () => {
    const body = registration();
    const reg = await find((await register(body)).body.reference);
    const refused = await rpc(WAREHOUSE, "project_registration_approve", { id: reg.id });
    expect(refused.status).toBe(403);
    const res = await rpc(MANAGER, "project_registration_approve", { id: reg.id });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: "approved", code: `REG-${reg.id}` });
    const project = (await restFetch(MANAGER, `project?id=eq.${res.body.project_id}&select=*,company:company(name)`))
      .body as Json[];
    expect(project[0]).toMatchObject({
      code: `REG-${reg.id}`,
      name: "Level 12 office fit-out",
      budget: "185000.00",
      end_date: "2026-09-30",
      company: { name: body.end_customer },
    });
    const after = await find(`REG-${reg.id}`);
    expect(after).toMatchObject({
      status: "approved",
      project_id: res.body.project_id,
      company_id: res.body.company_id,
    });
    const mail = await mailboxTo(baseUrl(), body.contact_email, (m) => m[0]?.subject.includes("is approved") ?? false);
    expect(mail[0].subject).toContain("is approved");
    const again = await rpc(MANAGER, "project_registration_approve", { id: reg.id });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("This registration was already approved");
  });

  it("approve links an existing company of the same name instead of making another", async () => {
    const company = await restFetch(MANAGER, "company?select=id,name&order=id&limit=1");
    const existing = (company.body as Json[])[0];
    const reg = await find(
      (await register(registration({ end_customer: existing.name.toLowerCase() }))).body.reference,
    );
    const res = await rpc(MANAGER, "project_registration_approve", { id: reg.id, code: `REG-LINK-${reg.id}` });
    expect(res.status, res.text).toBe(200);
    expect(res.body.company_id).toBe(existing.id);
  });

  it("reject needs a reason and e-mails it", async () => {
    const body = registration();
    const reg = await find((await register(body)).body.reference);
    const bare = await rpc(MANAGER, "project_registration_reject", { id: reg.id, reason: " " });
    expect(bare.status).toBe(422);
    expect(bare.body.message).toBe("Give a reason to reject the registration");
    const res = await rpc(MANAGER, "project_registration_reject", {
      id: reg.id,
      reason: "Already registered by another partner",
    });
    expect(res.status, res.text).toBe(200);
    const after = await find(`REG-${reg.id}`);
    expect(after).toMatchObject({ status: "rejected", reject_reason: "Already registered by another partner" });
    const mail = await mailboxTo(
      baseUrl(),
      body.contact_email,
      (m) => m[0]?.subject.includes("was not approved") ?? false,
    );
    expect(mail[0].subject).toContain("was not approved");
    expect(mail[0].text).toContain("Reason: Already registered by another partner");
  });

  it("a salesperson reads registrations but may not decide; another workspace cannot reach them", async () => {
    const reg = await find((await register(registration())).body.reference);
    expect((await rpc(SALES, "project_registration_reject", { id: reg.id, reason: "no" })).status).toBe(403);
    const other = await rpc(PRO, "project_registration_approve", { id: reg.id });
    expect(other.status).toBe(404);
    const read = await restFetch(PRO, `project_registration?id=eq.${reg.id}&select=id`);
    expect(read.body).toEqual([]);
  });
});
