import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ok } from "../../apps/server/test/documents-helpers.ts";
import { type FakeMeta, sign, startFakeMeta, waWebhook } from "../../apps/server/test/fake-meta-graph.ts";
import { ownServer } from "../../apps/server/test/own-server-helpers.ts";
import { appUrl, type Browser, hasChromium, openBrowser, screenshot, signIn, watchErrors } from "../browser.ts";

// Issue 24 "Inbox": a WhatsApp message arrives (the test posts Meta's signed webhook to /webhooks/meta, as Meta
// would, with the number connected against a local fake of the Graph API), the salesperson takes the conversation,
// answers it inside the 24-hour window, makes a quotation from it and sends that quotation back as a PDF — at
// 1440 px, and the thread on a 390 px phone.

const ADMIN = "admin@demo.test";
const SALES = "sales@demo.test";
const SECRET = "journey-meta-secret";
const PHONE_ID = "109876543219999";
const TOKEN = `EAAGjourney${"z".repeat(40)}`;

describe.skipIf(!hasChromium)("the inbox in Chromium", () => {
  const env: Record<string, string> = { META_APP_SECRET: SECRET, META_VERIFY_TOKEN: "journey-verify" };
  let fake: FakeMeta;
  beforeAll(async () => {
    fake = await startFakeMeta();
    env.META_GRAPH_URL = fake.url;
    fake.grant(TOKEN, { [PHONE_ID]: { display_phone_number: "+65 6111 0000", verified_name: "Demo Trading Sales" } });
  });
  const own = ownServer(env, 600_000);
  const browsers: Browser[] = [];
  afterAll(async () => {
    for (const b of browsers) await b.close();
    await fake?.close();
  });

  it("a WhatsApp message is taken, answered in the window, and a quotation made from it goes back as a PDF", async () => {
    await ok(ADMIN, "channel_connect", { channel: "whatsapp", external_id: PHONE_ID, access_token: TOKEN });
    const [product] = await own.q<{ name: string }>(
      sql`select name from product where active and length(name) > 5 order by id limit 1`,
    );
    const stamp = Date.now();
    const number = `6591${String(stamp).slice(-6)}`;
    const name = `Tan Wei Ming ${String(stamp).slice(-4)}`;
    const body = JSON.stringify(
      waWebhook([
        {
          phoneNumberId: PHONE_ID,
          contacts: [{ wa_id: number, profile: { name } }],
          messages: [
            {
              from: number,
              id: `wamid.journey${stamp}`,
              timestamp: String(Math.floor(stamp / 1000)),
              type: "text",
              text: { body: `Hello, can I get a price for 12 ${product.name}? Delivery to Jurong next week.` },
            },
          ],
        },
      ]),
    );
    const posted = await fetch(`${own.server.url}/webhooks/meta`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature-256": sign(SECRET, body) },
      body,
    });
    expect(posted.status).toBe(200);
    await own.server.running.app.jobs.drained(20_000);

    const b = await openBrowser();
    browsers.push(b);
    const page = await b.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, SALES);
    await page.goto(appUrl("/dashboard/inbox"));
    await page.getByRole("heading", { name: "Inbox", level: 1 }).waitFor();
    await page.getByText("Live", { exact: true }).waitFor();
    const row = page.getByRole("button", { name: `Conversation with ${name}` });
    await row.waitFor();
    await row.click();
    await page.getByText(`can I get a price for 12 ${product.name}`).waitFor();
    await page.getByText(/Reply window open until/).waitFor();
    await page.getByRole("button", { name: "Take it" }).click();
    await page.getByText("Samuel Goh has it now").waitFor();
    await page.getByRole("button", { name: "Hand back" }).waitFor();

    await page.getByLabel("Message", { exact: true }).fill("Hi! Yes, 12 in stock. I'll send you a quotation now.");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    // Sent by the job through the Graph API; the bubble's ticks follow over realtime.
    await page
      .getByText(/Sent ✓/)
      .first()
      .waitFor({ timeout: 20_000 });
    expect(fake.sent.at(-1)?.body).toMatchObject({
      to: number,
      text: { body: "Hi! Yes, 12 in stock. I'll send you a quotation now." },
    });
    await screenshot(page, "inbox-thread-1440");

    await page.getByRole("button", { name: "Create quotation" }).click();
    await page.waitForURL(/\/dashboard\/quotations\/\d+/);
    const quotationId = Number(new URL(page.url()).pathname.split("/").pop());
    await page.getByText(product.name).first().waitFor();
    await screenshot(page, "inbox-quotation-from-conversation-1440");

    await page.goBack();
    const doc = page.locator(`[data-document="quotation-${quotationId}"]`).first();
    await doc.waitFor();
    await doc.getByRole("button", { name: "Send PDF" }).click();
    await page.getByText(/sent as a PDF/).waitFor();
    // The PDF's bubble: its file, and Meta's acceptance shown over realtime once the job has sent it.
    const pdfBubble = page.locator('[data-direction="out"]', { hasText: /quotation-.*\.pdf/ }).last();
    await pdfBubble.getByRole("link", { name: /quotation-.*\.pdf/ }).waitFor({ timeout: 20_000 });
    await pdfBubble.getByText(/Sent ✓|Delivered|Read/).waitFor({ timeout: 20_000 });
    expect(fake.uploads.at(-1)).toMatchObject({ phoneNumberId: PHONE_ID, type: "application/pdf" });
    expect(fake.sent.at(-1)?.body).toMatchObject({ to: number, type: "document" });
    await screenshot(page, "inbox-pdf-sent-1440");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByText("Hi! Yes, 12 in stock.").waitFor();
    await screenshot(page, "inbox-thread-390");
    await page.getByRole("button", { name: "Back to the conversations" }).click();
    await row.waitFor();
    await screenshot(page, "inbox-list-390");
    expect(errors).toEqual([]);

    await page.setViewportSize({ width: 1440, height: 900 });
    const adminBrowser = await openBrowser();
    browsers.push(adminBrowser);
    const admin = await adminBrowser.context.newPage();
    await signIn(admin, ADMIN);
    await admin.goto(appUrl("/dashboard/cca"));
    await admin.locator(`[data-account="${PHONE_ID}"]`).getByText("Connected").waitFor();
    await screenshot(admin, "inbox-channels-1440");
  });
});
