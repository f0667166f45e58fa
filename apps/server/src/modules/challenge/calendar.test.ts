import { describe, expect, it } from "vitest";
import { icsCalendar } from "./calendar.ts";

// RFC 5545 as calendar apps read it: CRLF line ends, lines of at most 75 octets folded with a leading space (never
// inside a UTF-8 character), text escaped, all-day events ending the day after their last day.
describe("the .ics feed", () => {
  const long = "Invoice INV-2026-00042 due: Marina Bay Sands Pte Ltd, Level 57 — Café Résumé owes 12,345.67";
  const ics = icsCalendar(
    [
      {
        id: "invoice-42",
        kind: "invoice_due",
        type: "invoice",
        doc_id: 42,
        title: long,
        start: "2026-12-31",
        end: "2026-12-31",
        url: "/dashboard/invoices/42",
      },
    ],
    { name: "Demo; Co", origin: "https://demo.example.com", host: "demo.example.com:8443" },
  );
  const lines = ics.split("\r\n");

  it("folds at 75 octets without splitting characters, and unfolds to the escaped text", () => {
    expect(ics.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(ics.replace(/\r\n/g, "")).not.toMatch(/\n/);
    for (const l of lines) expect(Buffer.byteLength(l)).toBeLessThanOrEqual(75);
    const unfolded = ics.replace(/\r\n /g, "");
    expect(unfolded).toContain(`SUMMARY:${long.replace(/,/g, "\\,")}\r\n`);
    expect(unfolded).toContain("X-WR-CALNAME:Demo\\; Co\r\n");
  });

  it("an all-day event ends the next day, across a year; its UID names the host without the port", () => {
    expect(lines).toContain("DTSTART;VALUE=DATE:20261231");
    expect(lines).toContain("DTEND;VALUE=DATE:20270101");
    expect(lines).toContain("UID:invoice-42@demo.example.com");
    expect(lines).toContain("URL:https://demo.example.com/dashboard/invoices/42");
  });
});
