import { defineConfig } from "vitest/config";

// Three suites: pure unit tests beside the code, API tests against one real server, browser journeys.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["packages/*/src/**/*.test.ts", "apps/server/src/**/*.test.ts", "apps/web/src/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        test: {
          name: "api",
          include: ["apps/server/test/**/*.api.test.ts"],
          globalSetup: ["apps/server/test/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["e2e/tests/**/*.e2e.test.ts"],
          globalSetup: ["apps/server/test/global-setup.ts"],
          fileParallelism: false,
          // A hang guard, not a measure: CI runs two shards side by side, and a long journey then takes over a minute.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
