import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./packages/domain/src/db/schema.ts",
  out: "./apps/server/migrations",
});
