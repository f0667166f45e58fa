import type { TestProject } from "vitest/node";
import { startTestServer } from "./harness.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
  }
}

// One real server for the whole suite, seeded with the demo data (DESIGN §3.2).
export default async function setup(project: TestProject) {
  const server = await startTestServer({ PUBLIC_URL: "http://localhost:0" });
  project.provide("baseUrl", server.url);
  project.provide("databaseUrl", server.databaseUrl ?? "");
  return () => server.close();
}
