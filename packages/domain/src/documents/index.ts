// The pure documents engine (issue 10 §1): import "@workmetrics/domain/documents/index", or one file directly.
export * from "./decimal.ts";
export * from "./machine.ts";
export * from "./numbering.ts";
export * from "./postings.ts";
export * from "./quantities.ts";
export * from "./totals.ts";
