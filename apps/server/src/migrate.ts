// `npm run migrate` (after `npm run build`): the release step of a deploy with several instances (DESIGN §3.1) —
// migrates and prepares the database once, as a start would, then exits; the instances started after it find
// everything in place. Safe beside running or starting instances: it takes the same start-up lock.
import { loadConfigOrExit } from "./config.ts";
import { openDatabase } from "./platform/db/database.ts";
import { prepareDatabase } from "./server.ts";

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const started = performance.now();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await prepareDatabase(database, config);
  } finally {
    await database.close();
  }
  console.log(`Workmetrics database (${database.kind}) ready in ${Math.round(performance.now() - started)} ms`);
}

main().catch((err) => {
  console.error("Workmetrics migration failed:", err instanceof Error ? err.message : err);
  process.exit(1);
});
