// The whole Drizzle schema, for drizzle-kit and the database handle. Only a barrel: the schema files import each
// other directly, never this file (STYLE: arrows point down).
export * from "./auth-schema.ts";
export * from "./books-schema.ts";
export * from "./challenge-schema.ts";
export * from "./claims-schema.ts";
export * from "./commission-schema.ts";
export * from "./company-schema.ts";
export * from "./document-settings-schema.ts";
export * from "./documents-schema.ts";
export * from "./gst-schema.ts";
export * from "./hr-schema.ts";
export * from "./inventory-schema.ts";
export * from "./jobs-schema.ts";
export * from "./ledger-schema.ts";
export * from "./master-schema.ts";
export * from "./orders-schema.ts";
export * from "./partners-schema.ts";
export * from "./payables-schema.ts";
export * from "./payments-schema.ts";
export * from "./platform-schema.ts";
export * from "./pos-schema.ts";
export * from "./purchasing-schema.ts";
export * from "./returns-schema.ts";
export * from "./selling-schema.ts";
export * from "./stock-schema.ts";
export * from "./storage-schema.ts";
export * from "./tenancy-schema.ts";
