import type { FastifyInstance } from "fastify";
import { buildApp } from "./app.ts";
import type { Config } from "./config.ts";
import { type Database, openDatabase } from "./platform/db/database.ts";
import { seedDemo } from "./platform/db/demo-seed.ts";
import { upsertReferenceData } from "./platform/db/reference-data.ts";
import { installRowCounts } from "./platform/db/row-counts.ts";
import { secureTenantTables } from "./platform/db/tenant-security.ts";
import { createFileStore } from "./platform/storage/disk.ts";

export type Running = { app: FastifyInstance; database: Database; url: string; stop(): Promise<void> };

// Everything a start does to the database before it serves (also `npm run migrate`, migrate.ts), under the start-up
// lock so that instances starting together do it one after another; each step skips what is in place already, so
// a later instance's start takes no lock that stalls the requests of those running (issue 20 §3, DESIGN §3.1).
export async function prepareDatabase(
  database: Database,
  config: Pick<Config, "seed" | "dataDir"> & Partial<Pick<Config, "storage">>,
): Promise<void> {
  await database.exclusively(async () => {
    await database.migrate();
    await secureTenantTables(database.db);
    await installRowCounts(database.db);
    await upsertReferenceData(database.db);
    if (config.seed !== "none") {
      await seedDemo(database.db, { trading: config.seed === "demo", files: createFileStore(config) });
    }
  });
}

// Open the database, migrate, seed, and listen: what `npm start` and the tests both run.
export async function startServer(config: Config): Promise<Running> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    replicaUrl: config.replicaUrl,
    dataDir: config.dataDir,
    statementTimeoutMs: config.statementTimeoutMs,
  });
  await prepareDatabase(database, config);
  const app = await buildApp(config, database);
  const address = await app.listen({ port: config.port, host: config.host });
  const port = new URL(address).port;
  let stopping: Promise<void> | null = null;
  return {
    app,
    database,
    url: `http://localhost:${port}`,
    stop() {
      // Finish in-flight requests first (fastify.close waits for them), then close the database.
      stopping ??= app.close().then(() => database.close());
      return stopping;
    },
  };
}
