import { describe, expect, it } from "vitest";
import { mailboxTo, some } from "./auth-helpers.ts";
import { act, draft, ok, read } from "./documents-helpers.ts";
import { baseUrl } from "./http.ts";

// Issue 10 §3 "E-mail a document": without SMTP_URL the server keeps mail in its own mailbox table. The command
// sends from inside its transaction; on PGlite's single connection the mailbox's write waited for that transaction
// forever and froze every request after it. Now the mailbox keeps it once the transaction has ended.

const ADMIN = "admin@demo.test";

describe("document_email into the built-in mailbox", () => {
  it("keeps the mail, answers, and the server goes on answering", async () => {
    const made = await draft(ADMIN, "invoice");
    expect((await act(ADMIN, "invoice", made.id, "submit")).status).toBe(200);
    const invoice = await read(ADMIN, "invoice", made.id);
    const to = `buyer-${made.id}@example.test`;
    const sent = await ok(ADMIN, "document_email", { type: "invoice", id: made.id, to });
    expect(sent).toMatchObject({ number: invoice.number, to: [to] });
    const mail = await mailboxTo(baseUrl(), to, some);
    expect(mail.map((m) => m.subject)).toEqual([expect.stringContaining(`Invoice ${invoice.number} from`)]);
    expect(mail[0].text).toContain(`Attached: ${invoice.number}`);
    const health = await fetch(`${baseUrl()}/api/health`);
    expect(health.status).toBe(200);
  });
});
