export * from "./brand.ts";
export * from "./channels.ts";
export * from "./errors.ts";
export * from "./hosts.ts";
export * from "./money.ts";
export * from "./roles.ts";
export * from "./routes.ts";
export * from "./tiers.ts";
