import { workspace } from "@workmetrics/domain/db/schema";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { buildApp } from "./app.ts";
import type { Config } from "./config.ts";
import { registerModules } from "./modules/index.ts";
import { type Database, openDatabase } from "./platform/db/database.ts";
import { seedDemo } from "./platform/db/demo-seed.ts";
import { upsertReferenceData } from "./platform/db/reference-data.ts";
import { installRowCounts } from "./platform/db/row-counts.ts";
import { secureTenantTables } from "./platform/db/tenant-security.ts";
import type { EarlyServer } from "./platform/http/early.ts";
import { installChangeAnnouncements } from "./platform/realtime/announce.ts";
import { createFileStore } from "./platform/storage/disk.ts";

export type Running = {
  app: FastifyInstance;
  database: Database;
  url: string;
  // Settles when the demo written after listening (seedWhileServing) is in; at once otherwise.
  seeded: Promise<void>;
  stop(): Promise<void>;
};

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
    registerModules(); // the document types, which announce their own changes (announce.ts)
    await installChangeAnnouncements(database.db);
    await upsertReferenceData(database.db);
    if (config.seed !== "none") {
      await seedDemo(database.db, { trading: config.seed === "demo", files: createFileStore(config) });
    }
  });
}

// Open the database, migrate, seed, and listen: what `npm start` and the tests both run.
// `seedWhileServing` (npm start, main.ts; issue 21 §5): on a new embedded database the server listens before the demo
// is written and writes it after. The seed is one transaction, so until it commits the data's routes answer 503
// "seeding" (lifecycle.ts), the web's pages load and say the demo is on its way; /api/health and /api/ready answer
// 503 until it is done, so whatever waits for them waits for the demo, as before. A seed that fails stops the process.
// `early` (npm start): the server main.ts listens on from the first moment (platform/http/early.ts); the app takes it
// over once ready instead of listening itself.
export async function startServer(
  config: Config,
  opts: { seedWhileServing?: boolean; early?: EarlyServer } = {},
): Promise<Running> {
  const times: Record<string, number> = {};
  let t = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    times[name] = Math.round(now - t);
    t = now;
  };
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    replicaUrl: config.replicaUrl,
    dataDir: config.dataDir,
    statementTimeoutMs: config.statementTimeoutMs,
  });
  lap("open");
  const later = opts.seedWhileServing === true && database.kind === "pglite" && config.seed !== "none";
  await prepareDatabase(database, later ? { ...config, seed: "none" } : config);
  lap("prepare");
  const early = opts.early;
  const app = await buildApp(config, database, early ? { serverFactory: early.factory } : {});
  lap("app");
  const seedLater = later && !(await hasDemo(database));
  app.lifecycle.seeding = seedLater;
  let address: string;
  if (early) {
    await app.ready();
    early.handOver();
    const bound = early.server.address();
    address = `http://localhost:${typeof bound === "object" && bound ? bound.port : config.port}`;
  } else {
    address = await app.listen({ port: config.port, host: config.host });
  }
  lap("listen");
  app.log.info({ ms: times, seeding: seedLater }, "start-up steps");
  let seeded: Promise<void> = Promise.resolve();
  if (seedLater) {
    const started = performance.now();
    seeded = prepareDatabase(database, config).then(() => {
      app.lifecycle.seeding = false;
      app.log.info({ ms: Math.round(performance.now() - started) }, "demo data written");
    });
  }
  const port = new URL(address).port;
  let stopping: Promise<void> | null = null;
  return {
    app,
    database,
    url: `http://localhost:${port}`,
    seeded,
    stop() {
      // Finish in-flight requests first (fastify.close waits for them), then close the database.
      // A server taken over (early) is not closed by Fastify: it is closed here, after.
      stopping ??= app
        .close()
        .then(() => early?.close())
        .then(() => database.close());
      return stopping;
    },
  };
}

// Whether the demo's workspace is there (seedDemo's own test; the seed then skips).
async function hasDemo(database: Database): Promise<boolean> {
  const rows = await database.db
    .select({ id: workspace.id })
    .from(workspace)
    .where(eq(workspace.slug, "demo"))
    .limit(1);
  return rows.length > 0;
}
