import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeInstagram, startFakeInstagram } from "../../apps/server/test/fake-instagram.ts";
import { type FakeMicrosoft, startFakeMicrosoft } from "../../apps/server/test/fake-microsoft.ts";
import { ownServer } from "../../apps/server/test/own-server-helpers.ts";
import { appUrl, type Browser, hasChromium, openBrowser, screenshot, signIn, watchErrors } from "../browser.ts";

// Issue 24, the Outlook half of the inbox: the admin connects the sales mailbox from /dashboard/cca through
// Microsoft's sign-in (a local fake of Microsoft's login and Graph, MS_LOGIN_URL / MS_GRAPH_URL pointed at it), which
// returns to /outlook/callback and subscribes to the mailbox; a customer's mail arrives (the test posts Graph's
// notification to /webhooks/outlook, as Graph would), appears in the inbox, is answered, and the fake Graph received
// the reply to that very mail. A refused sign-in comes back to the page saying so. On the same page an Instagram
// professional account connects through Instagram's business login (fake-instagram.ts, IG_* pointed at it).

const ADMIN = "admin@demo.test";
const MAILBOX = { id: "2b9a6c1e-0d4f-4e1a-9b77-journey00001", mail: "sales@demotrading.sg", displayName: "Sales" };

describe.skipIf(!hasChromium)("Outlook in the inbox, in Chromium", () => {
  const env: Record<string, string> = {};
  let fake: FakeMicrosoft;
  let instagram: FakeInstagram;
  beforeAll(async () => {
    fake = await startFakeMicrosoft();
    instagram = await startFakeInstagram();
    instagram.signIn({ userId: "17841400000000777", username: "demotrading.sg", name: "Demo Trading" });
    Object.assign(env, {
      IG_APP_ID: instagram.appId,
      IG_APP_SECRET: instagram.appSecret,
      IG_LOGIN_URL: instagram.url,
      IG_API_URL: instagram.url,
      IG_GRAPH_URL: instagram.url,
      MS_LOGIN_URL: fake.url,
      MS_GRAPH_URL: fake.url,
      MS_CLIENT_ID: fake.clientId,
      MS_CLIENT_SECRET: fake.clientSecret,
    });
    fake.signIn(MAILBOX);
  });
  const own = ownServer(env, 600_000);
  const browsers: Browser[] = [];
  afterAll(async () => {
    for (const b of browsers) await b.close();
    await fake?.close();
    await instagram?.close();
  });

  it("connects Instagram through its business login; a declined sign-in says so", async () => {
    const b = await openBrowser();
    browsers.push(b);
    const page = await b.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, ADMIN);
    await page.goto(appUrl("/dashboard/cca"));
    await page.getByRole("heading", { name: "Instagram", exact: true }).waitFor();
    instagram.declineNext = true;
    await page.getByRole("button", { name: "Connect with Instagram" }).click();
    await page.waitForURL(/\/dashboard\/cca\?instagram=refused/, { timeout: 60_000 });
    await page.getByRole("alert").filter({ hasText: "cancelled or refused: The user denied your request" }).waitFor();
    await page.getByRole("button", { name: "Connect with Instagram" }).click();
    await page.waitForURL(/\/dashboard\/cca\?instagram=connected/, { timeout: 60_000 });
    await page.getByText("Instagram is connected: its direct messages arrive in the inbox.").waitFor();
    const row = page.locator('[data-account="17841400000000777"]');
    await row.getByText("Connected").waitFor();
    await row.getByText("@demotrading.sg").waitFor();
    await page.getByRole("button", { name: "Reconnect with Instagram" }).waitFor();
    expect(instagram.subscribed.get("17841400000000777")).toBe("messages");
    await screenshot(page, "instagram-connected-1440");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("connects Outlook, and a customer's mail is answered from the inbox", async () => {
    const b = await openBrowser();
    browsers.push(b);
    const page = await b.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, ADMIN);

    // A refused sign-in (the person cancelled at Microsoft) comes back saying so, and keeps nothing.
    await page.goto(
      appUrl("/outlook/callback?error=access_denied&error_description=The%20user%20cancelled%20the%20sign-in"),
    );
    await page.waitForURL(/\/dashboard\/cca\?outlook=refused/);
    try {
      await page
        .getByRole("alert")
        .filter({ hasText: /cancelled or refused: The user cancelled the sign-in/ })
        .waitFor();
    } catch (err) {
      await screenshot(page, "outlook-refused-failure");
      console.error("at", page.url(), (await page.locator("body").innerText()).slice(0, 2000));
      throw err;
    }

    await page.goto(appUrl("/dashboard/cca"));
    await page.getByRole("heading", { name: "Outlook (Sales Email)" }).waitFor();
    await page.getByRole("button", { name: "Connect Outlook" }).click();
    // Microsoft (the fake) consents at once and sends the browser back through /outlook/callback.
    await page.waitForURL(/\/dashboard\/cca\?outlook=connected/, { timeout: 60_000 });
    await page.getByText("Outlook is connected: new mail arrives in the inbox.").waitFor();
    const row = page.locator(`[data-account="${MAILBOX.id}"]`);
    await row.getByText("Connected").waitFor();
    await row.getByText(MAILBOX.mail).waitFor();
    expect(fake.validations.some((v) => v.ok)).toBe(true);
    await page.getByRole("button", { name: "Reconnect Outlook" }).waitFor();
    await screenshot(page, "outlook-connected-1440");
    await page.setViewportSize({ width: 390, height: 844 });
    await row.getByText("Connected").waitFor();
    await screenshot(page, "outlook-connected-390");
    await page.setViewportSize({ width: 1440, height: 900 });

    // A customer writes to the sales mailbox; Graph notifies our webhook.
    const sub = [...fake.subscriptions.values()].at(-1);
    if (!sub) throw new Error("no subscription was made");
    const stamp = String(Date.now()).slice(-6);
    const subject = `Quote for 40 cartons, PO ${stamp}`;
    const mail = fake.deliver(MAILBOX.id, {
      from: `purchasing${stamp}@example-buyer.sg`,
      subject,
      text: "Hello, could you quote 40 cartons delivered to Tuas by Friday? Thanks, Mei Ling",
    });
    const posted = await fetch(`${own.server.url}/webhooks/outlook`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(fake.notification(sub, mail.id)),
    });
    expect(posted.status).toBe(202);
    await own.server.running.app.jobs.drained(30_000);

    await page.goto(appUrl("/dashboard/inbox"));
    await page.getByRole("heading", { name: "Inbox", level: 1 }).waitFor();
    const conv = page.getByRole("button", { name: `Conversation with ${subject}` });
    await conv.waitFor();
    await conv.click();
    await page.getByText(/could you quote 40 cartons delivered to Tuas/).waitFor();
    await page.getByLabel("Message", { exact: true }).fill("Dear Mei Ling, 40 cartons can reach Tuas on Friday.");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page
      .getByText(/Sent ✓/)
      .first()
      .waitFor({ timeout: 30_000 });
    const reply = fake.replies.at(-1);
    expect(reply?.messageId).toBe(mail.id);
    expect(reply?.body).toMatchObject({ comment: "Dear Mei Ling, 40 cartons can reach Tuas on Friday." });
    await screenshot(page, "outlook-thread-1440");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel("Messages").getByText("Dear Mei Ling, 40 cartons").waitFor();
    await screenshot(page, "outlook-thread-390");
    expect(errors).toEqual([]);
  }, 420_000);
});
