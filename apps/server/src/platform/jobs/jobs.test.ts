import { describe, expect, it } from "vitest";
import type { OutgoingMail } from "../auth/mail-templates.ts";
import { mailHandler, mailPayload } from "./mail.ts";
import type { JobContext } from "./worker.ts";
import { slotStart } from "./worker.ts";

describe("slotStart", () => {
  it("names the start of the slot a moment falls in, the same for every instance", () => {
    const hour = 3_600_000;
    expect(slotStart(Date.parse("2026-11-27T12:59:59.999Z"), hour)).toBe("2026-11-27T12:00:00.000Z");
    expect(slotStart(Date.parse("2026-11-27T13:00:00.000Z"), hour)).toBe("2026-11-27T13:00:00.000Z");
    expect(slotStart(Date.parse("2026-11-27T13:07:00.000Z"), 600_000)).toBe("2026-11-27T13:00:00.000Z");
  });
});

describe("a mail through the queue's payload", () => {
  it("is sent as it was queued, attachments included, and its payload is plain JSON", async () => {
    const pdf = Buffer.from("%PDF-1.7 some bytes \u0000\u00ff");
    const mail: OutgoingMail = {
      to: "a@example.test",
      cc: "b@example.test",
      fromName: "Harbourline via Workmetrics",
      subject: "Invoice INV-1",
      text: "Hello",
      html: "<p>Hello</p>",
      attachments: [{ filename: "INV-1.pdf", content: pdf, contentType: "application/pdf" }],
    };
    const payload = JSON.parse(JSON.stringify(mailPayload(mail)));
    const sent: OutgoingMail[] = [];
    await mailHandler({ send: async (m) => void sent.push(m) })(payload as never, {} as JobContext);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: mail.to, cc: mail.cc, subject: mail.subject, fromName: mail.fromName });
    expect(sent[0].attachments?.[0].content.equals(pdf)).toBe(true);
  });

  it("a mail server's refusal fails the job (the worker retries it)", async () => {
    const handler = mailHandler({
      send: async () => {
        throw new Error("451 try again later");
      },
    });
    await expect(
      handler(mailPayload({ to: "a@x.test", subject: "s", text: "t", html: "h" }) as never, {} as JobContext),
    ).rejects.toThrow("451");
  });
});
