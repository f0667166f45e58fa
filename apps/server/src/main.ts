import { loadConfigOrExit } from "./config.ts";
import { startServer } from "./server.ts";

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const started = performance.now();
  const running = await startServer(config);
  running.app.log.info(
    { database: running.database.kind, ms: Math.round(performance.now() - started) },
    `Workmetrics ready on ${config.publicUrl}`,
  );
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      running.app.log.info({ signal }, "shutting down");
      running.stop().then(
        () => process.exit(0),
        (err) => {
          running.app.log.error({ err }, "shutdown failed");
          process.exit(1);
        },
      );
    });
  }
}

main().catch((err) => {
  console.error("Workmetrics failed to start:", err instanceof Error ? err.message : err);
  process.exit(1);
});
