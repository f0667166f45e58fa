import { describe, expect, it } from "vitest";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, hasChromium, openBrowser, screenshot, signIn, useFreshBrowser, watchErrors } from "../browser.ts";

// Issue 11: a buyer asks a supplier for a discount and sends it; the supplier confirms it on the public page
// without an account; the buyer sees it confirmed and the next purchase order's line is priced by it. A reseller
// registers a project on the workspace's public page (told on the fields first), and a sales manager approves it
// into a project. The public pages also at 390 px.

const BUYER = "procurement@demo.test";
const MANAGER = "manager@demo.test";

type Json = Record<string, unknown>;

async function supplierAndProduct(): Promise<{ supplier: Json; product: Json }> {
  const suppliers = (await restFetch(BUYER, "company?select=id,name&is_supplier=is.true&order=id&limit=1"))
    .body as Json[];
  const products = (await restFetch(BUYER, "product?select=id,name,sku&active=is.true&cost=gt.0&order=id&limit=1"))
    .body as Json[];
  return { supplier: suppliers[0], product: products[0] };
}

describe.skipIf(!hasChromium)("supplier discounts and project registrations in Chromium", () => {
  const fresh = useFreshBrowser();

  it("a supplier confirms a discount on the public page and the next purchase order uses it", async () => {
    const { page, errors } = fresh;
    await page.setViewportSize({ width: 1280, height: 900 });
    const { supplier, product } = await supplierAndProduct();

    // The buyer drafts the request in the dashboard and sends it.
    await signIn(page, BUYER, { sub: "demo" });
    await page.goto(appUrl("/dashboard/supplier-discount-forms", "demo"));
    await page.getByRole("button", { name: "New" }).click();
    await page.getByRole("heading", { name: "New supplier discount form" }).waitFor();
    await page.getByLabel("Supplier", { exact: true }).fill(String(supplier.name).slice(0, 6));
    await page.getByRole("option", { name: String(supplier.name) }).click();
    await page.getByLabel("Supplier e-mail (gets the link)").fill("quotes@supplier.example");
    await page.getByLabel("Discount %").fill("8");
    await page.getByLabel("Minimum quantity").fill("10");
    await page.getByLabel("Product 1", { exact: true }).fill(String(product.name).slice(0, 8));
    await page
      .getByRole("option", { name: new RegExp(String(product.name)) })
      .first()
      .click();
    await page.getByLabel("Message to the supplier").fill("For our Tuas warehouse restocking this year.");
    await screenshot(page, "partners-1-discount-editor");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.waitForURL(/\/dashboard\/supplier-discount-forms\/\d+$/);
    await page.locator("[data-status=draft]").waitFor();
    await page.getByRole("button", { name: "Send", exact: true }).click();
    const link = (await page.getByTestId("discount-link").textContent()) as string;
    expect(link).toMatch(/\/auth\/supplier-discount-forms\/[0-9a-f]{64}$/);
    await page.locator("[data-status=sent]").waitFor();
    await screenshot(page, "partners-2-discount-sent");
    const formUrl = page.url();

    // The supplier, in a browser of their own without an account, opens the link and confirms.
    const outside = await openBrowser({ width: 1280, height: 900 });
    try {
      const guest = await outside.context.newPage();
      const guestErrors = watchErrors(guest);
      await guest.goto(link);
      await guest.getByRole("heading", { name: "Please confirm a discount" }).waitFor();
      expect(await guest.getByTestId("discount-headline").textContent()).toBe("8% off 1 product");
      await guest.getByRole("button", { name: "Confirm discount" }).click();
      await guest.getByText("Enter your name").waitFor(); // told on the field, nothing sent
      await guest.getByLabel("Your name").fill("Lim Wei");
      await guest.getByLabel("Note (optional)").fill("For full pallets only");
      await screenshot(guest, "partners-3-supplier-page");
      await guest.getByRole("button", { name: "Confirm discount" }).click();
      await guest.getByRole("heading", { name: "Discount confirmed" }).waitFor();
      await screenshot(guest, "partners-4-supplier-confirmed");
      // The link, used again, says it was answered.
      await guest.reload();
      await guest.getByRole("heading", { name: "Discount confirmed" }).waitFor();
      await guest.setViewportSize({ width: 390, height: 844 });
      expect(await guest.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(guest, "partners-5-supplier-phone");
      expect(guestErrors).toEqual([]);
    } finally {
      await outside.close();
    }

    // The buyer sees it confirmed; the next purchase order of 12 is priced by it.
    await page.goto(formUrl);
    await page.locator("[data-status=confirmed]").waitFor();
    expect(await page.getByTestId("discount-answer").textContent()).toContain("Lim Wei");
    const formId = Number(formUrl.split("/").pop());
    const po = await restFetch(BUYER, "rpc/document_save", {
      method: "POST",
      body: JSON.stringify({
        type: "purchase_order",
        header: { company_id: supplier.id },
        lines: [{ product_id: product.id, qty: "12" }],
      }),
    });
    expect(po.status, po.text).toBe(200);
    const line = (
      (await restFetch(BUYER, `purchase_order_line?purchase_order_id=eq.${(po.body as Json).id}&select=*`))
        .body as Json[]
    )[0];
    expect(Number(line.discount_percent)).toBe(8);
    expect(line.supplier_discount_form_id).toBe(formId);
    await page.goto(appUrl(`/dashboard/purchase-orders/${(po.body as Json).id}`, "demo"));
    await page.getByText(String(product.name)).first().waitFor();
    // The line names the form that priced it, a link to it.
    const priced = page.getByTestId("line-0").getByTestId("priced-by");
    await expect.poll(() => priced.textContent()).toBe("8% supplier discount");
    expect(await priced.getAttribute("href")).toMatch(new RegExp(`/dashboard/supplier-discount-forms/${formId}$`));
    await screenshot(page, "partners-6-purchase-order");
    await page.goto(appUrl("/dashboard/supplier-discount-forms", "demo"));
    await page.locator("[data-field=status]", { hasText: "Confirmed" }).first().waitFor();
    await screenshot(page, "partners-6a-discount-forms");
    expect(errors).toEqual([]);
  });

  it("a registration arrives on the public page and is approved into a project", async () => {
    const { page, errors } = fresh;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(appUrl("/auth/project-registrations", "demo"));
    await page.getByRole("heading", { name: "Register a project" }).waitFor();
    const customer = `Keppel Bay Towers ${Date.now() % 100000}`;
    await page.getByLabel("End customer").fill(customer);
    await page.getByLabel("Project name").fill("Lobby refurbishment");
    await page.getByLabel("Expected value (SGD)").fill("-10");
    await page.getByLabel("Your name").fill("Aisha Rahman");
    await page.getByLabel("E-mail").fill("aisha@");
    await page.getByRole("button", { name: "Send registration" }).click();
    await page.getByText("Expected value cannot be less than 0").waitFor();
    expect(await page.getByLabel("End customer").inputValue()).toBe(customer); // nothing lost
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, "partners-7-registration-errors-phone");
    await page.getByLabel("Expected value (SGD)").fill("240000");
    await page.getByLabel("E-mail").fill("aisha@rahman.example");
    await page.getByLabel("Site").fill("2 Keppel Bay Vista");
    await page.getByLabel("Products of interest").fill("Fire-rated doors, steel frames");
    await page.getByLabel("Your company").fill("Rahman Interiors");
    await page.getByRole("button", { name: "Send registration" }).click();
    const thanks = page.getByRole("status").getByRole("heading");
    await thanks.waitFor();
    const reference = /REG-\d+/.exec((await thanks.textContent()) ?? "")?.[0] as string;
    expect(reference).toBeTruthy();
    await screenshot(page, "partners-8-registration-sent");

    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, MANAGER, { sub: "demo" });
    // The same project registered again by someone else: flagged as a possible duplicate.
    const again = await fetch(appUrl("/api/public/project-registrations/demo"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        end_customer: customer.toUpperCase(),
        project_name: "lobby  refurbishment",
        contact_name: "Tan Boon Hock",
        contact_email: "boonhock@other-reseller.example",
      }),
    });
    expect(again.status).toBe(201);
    await page.goto(appUrl("/dashboard/project-registrations", "demo"));
    await page.getByText(customer.toUpperCase()).first().waitFor();
    await screenshot(page, "partners-9a-registrations");
    await page.getByText(customer, { exact: true }).first().click();
    await page.waitForURL(/\/dashboard\/project-registrations\/\d+$/);
    await page.getByRole("heading", { name: `${reference} · Lobby refurbishment` }).waitFor();
    await page.getByTestId("possible-duplicates").waitFor();
    await screenshot(page, "partners-9-registration-review");
    await page.getByRole("button", { name: "Approve" }).click();
    await page.getByText("Approved into project").waitFor();
    await screenshot(page, "partners-10-registration-approved");
    await page.getByRole("link", { name: new RegExp(reference) }).click();
    await page.waitForURL(/\/dashboard\/projects\/\d+$/);
    await page.getByText("Lobby refurbishment").first().waitFor();
    expect(errors).toEqual([]);
  });
  it("a supplier user, signed in, confirms a request addressed to their company", async () => {
    const { page, errors } = fresh;
    await page.setViewportSize({ width: 1280, height: 900 });
    const { supplier, product } = await supplierAndProduct();
    // The supplier user belongs to the company through a contact with their e-mail address.
    const contact = await restFetch("admin@demo.test", "contact", {
      method: "POST",
      body: JSON.stringify({ company_id: supplier.id, name: "Steven Ho", email: "supplier@demo.test" }),
    });
    expect(contact.status, contact.text).toBe(201);
    const saved = await restFetch(BUYER, "rpc/supplier_discount_form_save", {
      method: "POST",
      body: JSON.stringify({
        form: {
          company_id: supplier.id,
          contact_email: "orders@supplier.example",
          discount_kind: "price",
          valid_from: "2026-01-01",
          valid_to: "2099-12-31",
          min_qty: "50",
        },
        items: [{ product_id: product.id, price: "0.85" }],
      }),
    });
    expect(saved.status, saved.text).toBe(200);
    const id = (saved.body as Json).id;
    const sent = await restFetch(BUYER, "rpc/supplier_discount_form_send", {
      method: "POST",
      body: JSON.stringify({ id }),
    });
    expect(sent.status, sent.text).toBe(200);

    await signIn(page, "supplier@demo.test", { sub: "demo" });
    await page.goto(appUrl("/dashboard/supplier-discount-forms", "demo"));
    const request = page.getByTestId("discount-request").filter({ hasText: `Request ${id}` });
    await request.getByText("Waiting for your answer").waitFor();
    await request.getByLabel("Your name").fill("Steven Ho");
    await screenshot(page, "partners-11-supplier-user");
    await request.getByRole("button", { name: "Confirm discount" }).click();
    await request.getByText("Confirmed", { exact: true }).waitFor();
    expect(errors).toEqual([]);
  });
});
