import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { authClient, DEMO_PASSWORD, fragmentParams, linkIn, mailboxTo, uniqueEmail } from "./auth-helpers.ts";
import { api, baseUrl } from "./http.ts";

async function tokenFor(email: string, password = DEMO_PASSWORD): Promise<string> {
  const auth = await authClient(baseUrl());
  const { data, error } = await auth.signInWithPassword({ email, password });
  if (error) throw error;
  return data.session!.access_token;
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("workspace administration (issue 4 item 8)", () => {
  it("shows the plan, credit balance and seats to members", async () => {
    const { status, body } = await api("/api/workspace/overview", {
      headers: bearer(await tokenFor("manager@demo.test")),
    });
    expect(status).toBe(200);
    expect(body.subscription).toMatchObject({ tier_id: 12, cycle: "yearly", price: "2988.00" });
    expect(Number(body.active_users)).toBeGreaterThanOrEqual(11);
    expect(body).toHaveProperty("credit_balance");
    expect((await api("/api/workspace/overview")).status).toBe(401);
  });

  it("refuses address changes without permission or to a taken or reserved address", async () => {
    const sales = await tokenFor("sales@demo.test");
    expect(
      (await api("/api/workspace/slug", { method: "POST", headers: bearer(sales), json: { slug: "demo-two" } })).status,
    ).toBe(403);
    const admin = await tokenFor("admin@demo.test");
    const taken = await api("/api/workspace/slug", { method: "POST", headers: bearer(admin), json: { slug: "pro" } });
    expect(taken).toMatchObject({
      status: 409,
      body: { details: [{ field: "slug", message: "That address is taken" }] },
    });
    const reserved = await api("/api/workspace/slug", {
      method: "POST",
      headers: bearer(admin),
      json: { slug: "admin" },
    });
    expect(reserved.status).toBe(422);
  });

  it("accepts a small image logo and refuses anything else", async () => {
    const admin = await tokenFor("admin@pro.test");
    const png =
      "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
    expect(
      (await api("/api/workspace/logo", { method: "PUT", headers: bearer(admin), json: { logo: png } })).status,
    ).toBe(200);
    const bad = await api("/api/workspace/logo", {
      method: "PUT",
      headers: bearer(admin),
      json: { logo: "javascript:alert(1)" },
    });
    expect(bad.status).toBe(422);
    expect(
      (await api("/api/workspace/logo", { method: "PUT", headers: bearer(admin), json: { logo: null } })).status,
    ).toBe(200);
  });

  it("keeps the business details a tax invoice names, and prints them on the letterhead", async () => {
    const admin = await tokenFor("admin@lite.test");
    const details = {
      business_address: "10 Anson Road\n#12-01\nSingapore 079903",
      uen: "201912345k",
      gst_registration_number: "m2-0123456-7",
    };
    const saved = await api("/api/workspace/details", { method: "PUT", headers: bearer(admin), json: details });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ ...details, uen: "201912345K", gst_registration_number: "M2-0123456-7" });
    const bad = await api("/api/workspace/details", {
      method: "PUT",
      headers: bearer(admin),
      json: { ...details, uen: "12345" },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.details?.[0]?.field ?? bad.body.details?.[0]?.path).toMatch(/uen/);
    const driver = await tokenFor("driver@lite.test");
    expect((await api("/api/workspace/details", { method: "PUT", headers: bearer(driver), json: {} })).status).toBe(
      403,
    );
    const read = await api("/api/workspace/details", { headers: bearer(admin) });
    expect(read.body.uen).toBe("201912345K");
    // A quotation's letterhead names them.
    const quote = await api("/rest/v1/rpc/document_save", {
      method: "POST",
      headers: bearer(admin),
      json: {
        type: "quotation",
        header: {
          company_id: (await api("/rest/v1/company?select=id&limit=1", { headers: bearer(admin) })).body[0].id,
        },
        lines: [{ description: "Consulting", qty: "1", unit_price: "100" }],
      },
    });
    expect(quote.status).toBe(200);
    const pdf = await fetch(`${baseUrl()}/api/documents/quotation/${quote.body.id}/pdf`, { headers: bearer(admin) });
    expect(pdf.status).toBe(200);
    const dir = mkdtempSync(path.join(os.tmpdir(), "wm-letterhead-"));
    try {
      const file = path.join(dir, "q.pdf");
      writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
      const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
      expect(text).toContain("10 Anson Road");
      expect(text).toContain("UEN 201912345K");
      expect(text).toContain("GST Reg. No. M2-0123456-7");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("invites a colleague with a role; deactivating ends their sessions and blocks sign-in", async () => {
    const admin = await tokenFor("admin@pro.test");
    const roles = await api("/rest/v1/workspace_role?select=id,slug&slug=eq.salesperson", { headers: bearer(admin) });
    expect(roles.status).toBe(200);
    const email = uniqueEmail("invitee");
    const bad = await api("/api/workspace/invitations", {
      method: "POST",
      headers: bearer(admin),
      json: { email, name: "", workspace_role_id: 0 },
    });
    expect(bad.status).toBe(422);
    const invited = await api("/api/workspace/invitations", {
      method: "POST",
      headers: bearer(admin),
      json: { email, name: "Ivy Invitee", workspace_role_id: roles.body[0].id },
    });
    expect(invited.status).toBe(201);
    const again = await api("/api/workspace/invitations", {
      method: "POST",
      headers: bearer(admin),
      json: { email, name: "Ivy", workspace_role_id: roles.body[0].id },
    });
    expect(again.status).toBe(409);

    const [mail] = await mailboxTo(baseUrl(), email);
    const link = new URL(linkIn(mail.text));
    const landing = await fetch(`${baseUrl()}${link.pathname}${link.search}`, { redirect: "manual" });
    const location = landing.headers.get("location") ?? "";
    expect(location).toContain("/auth/reset");
    const session = fragmentParams(location);
    const auth = await authClient(baseUrl());
    await auth.setSession({ access_token: session.get("access_token")!, refresh_token: session.get("refresh_token")! });
    expect((await auth.updateUser({ password: "invited-and-happy-2026" })).error).toBeNull();
    const ivy = await tokenFor(email, "invited-and-happy-2026");
    const me = await api("/api/auth/user", { headers: bearer(ivy) });
    expect(me.body.profile).toMatchObject({ name: "Ivy Invitee", role_id: 3, workspace: { slug: "pro" } });

    const off = await api(`/api/workspace/users/${invited.body.id}/deactivate`, {
      method: "POST",
      headers: bearer(admin),
    });
    expect(off).toMatchObject({ status: 200, body: { active: false } });
    expect((await api("/api/auth/user", { headers: bearer(ivy) })).status).toBe(401);
    await expect(tokenFor(email, "invited-and-happy-2026")).rejects.toThrow();

    const on = await api(`/api/workspace/users/${invited.body.id}/reactivate`, {
      method: "POST",
      headers: bearer(admin),
    });
    expect(on.body.active).toBe(true);
    expect(await tokenFor(email, "invited-and-happy-2026")).toBeTruthy();
  });

  it("a custom role round trip: create it, invite someone with it, and its permission changes apply on the next request", async () => {
    const admin = await tokenFor("admin@demo.test");
    const prefer = { ...bearer(admin), prefer: "return=representation", accept: "application/vnd.pgrst.object+json" };
    const role = await api("/rest/v1/workspace_role", {
      method: "POST",
      headers: prefer,
      json: {
        title: "Van driver plus",
        slug: "van-driver-plus",
        base_role_id: 5,
        permissions: ["product.read", "product.create"],
      },
    });
    expect(role.status).toBe(201);
    const email = uniqueEmail("van");
    const invited = await api("/api/workspace/invitations", {
      method: "POST",
      headers: bearer(admin),
      json: { email, name: "Vince Van", workspace_role_id: role.body.id },
    });
    expect(invited.status).toBe(201);
    const [mail] = await mailboxTo(baseUrl(), email);
    const landing = await fetch(
      `${baseUrl()}${new URL(linkIn(mail.text)).pathname}${new URL(linkIn(mail.text)).search}`,
      { redirect: "manual" },
    );
    const session = fragmentParams(landing.headers.get("location") ?? "");
    const auth = await authClient(baseUrl());
    await auth.setSession({ access_token: session.get("access_token")!, refresh_token: session.get("refresh_token")! });
    await auth.updateUser({ password: "vans-and-vans-2026" });
    const vince = bearer(await tokenFor(email, "vans-and-vans-2026"));
    const me = await api("/api/auth/user", { headers: vince });
    expect(me.body.profile).toMatchObject({ role_id: 5, role: { slug: "driver" } });

    const product = { sku: `VAN-${Date.now()}`, name: "Van cargo net", price: "12.50", cost: "8.00", unit: "pc" };
    expect((await api("/rest/v1/product", { method: "POST", headers: vince, json: product })).status).toBe(201);
    expect((await api(`/rest/v1/product?sku=eq.${product.sku}`, { method: "DELETE", headers: vince })).status).toBe(
      403,
    );

    const patched = await api(`/rest/v1/workspace_role?id=eq.${role.body.id}`, {
      method: "PATCH",
      headers: bearer(admin),
      json: { permissions: ["product.read"] },
    });
    expect(patched.status).toBeLessThan(300);
    const again = await api("/rest/v1/product", {
      method: "POST",
      headers: vince,
      json: { ...product, sku: `${product.sku}-2` },
    });
    expect(again.status).toBe(403);
    expect((await api("/rest/v1/product?select=id&limit=1", { headers: vince })).status).toBe(200);
  });

  it("keeps one owner: no role change makes someone the owner or demotes the owner", async () => {
    const admin = bearer(await tokenFor("admin@pro.test"));
    const roles = await api("/rest/v1/workspace_role?select=id,base_role_id", { headers: admin });
    const ownerRole = roles.body.find((r: { base_role_id: number }) => r.base_role_id === 31);
    const driverRole = roles.body.find((r: { base_role_id: number }) => r.base_role_id === 5);
    const users = await api("/rest/v1/user?select=id,role_id", { headers: admin });
    const driver = users.body.find((u: { role_id: number }) => u.role_id === 5);
    const owner = users.body.find((u: { role_id: number }) => u.role_id === 31);
    const promote = await api(`/rest/v1/user?id=eq.${driver.id}`, {
      method: "PATCH",
      headers: admin,
      json: { workspace_role_id: ownerRole.id },
    });
    expect(promote.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(promote.body)).toContain("one owner");
    const demote = await api(`/rest/v1/user?id=eq.${owner.id}`, {
      method: "PATCH",
      headers: admin,
      json: { workspace_role_id: driverRole.id },
    });
    expect(demote.status).toBeGreaterThanOrEqual(400);
    const after = await api(`/rest/v1/user?select=role_id&id=eq.${owner.id}`, { headers: admin });
    expect(after.body[0].role_id).toBe(31);
  });

  it("never lets one workspace's admin act on another workspace's users", async () => {
    const admin = await tokenFor("admin@pro.test");
    const demoSales = await tokenFor("sales@demo.test");
    const me = await api("/api/auth/user", { headers: bearer(demoSales) });
    const res = await api(`/api/workspace/users/${me.body.user.id}/deactivate`, {
      method: "POST",
      headers: bearer(admin),
    });
    expect(res.status).toBe(404);
    expect((await api("/api/auth/user", { headers: bearer(demoSales) })).status).toBe(200);
  });
});
