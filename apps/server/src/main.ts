import { loadConfigOrExit } from "./config.ts";
import { listenEarly } from "./platform/http/early.ts";

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const started = performance.now();
  // Issue 21 §5: listen first, with Node's own modules only (early.ts), then load the app (a chunk of its own in the
  // build, scripts/build-server.mjs) and let it take the server over.
  const early = await listenEarly({
    port: config.port,
    host: config.host,
    webDist: config.webDist,
    baseDomain: config.baseDomain,
    production: config.production,
  });
  const { startServer } = await import("./server.ts");
  const running = await startServer(config, { seedWhileServing: true, early });
  running.app.log.info(
    { database: running.database.kind, ms: Math.round(performance.now() - started) },
    `Workmetrics ready on ${config.publicUrl}`,
  );
  // The demo written after listening (server.ts): a seed that fails stops the start as it did before listening.
  running.seeded.catch((err) => {
    running.app.log.error({ err }, "writing the demo data failed");
    console.error("Workmetrics failed to start:", err instanceof Error ? err.message : err);
    process.exit(1);
  });
  // Issue 25 §1, a graceful stop: /api/ready answers 503 at once and the instance goes on serving for
  // SHUTDOWN_DRAIN_MS (a balancer that polls readiness stops sending meanwhile); then it stops listening, answers
  // what arrives on open connections 503 with Connection: close (nginx passes it to another instance), finishes
  // the requests in flight, closes the realtime sockets with 1012 so clients reconnect elsewhere, lets the job
  // worker finish the jobs it runs, and exits. Past SHUTDOWN_TIMEOUT_MS it exits anyway: a job cut short is
  // claimed again by another instance when its lease runs out.
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      const { drainMs, timeoutMs } = config.shutdown;
      running.app.log.info({ signal, drainMs }, "draining, then shutting down");
      running.app.lifecycle.draining = true;
      setTimeout(() => {
        running.app.log.error({ timeoutMs }, "shutdown took too long; exiting");
        process.exit(1);
      }, drainMs + timeoutMs).unref();
      setTimeout(() => {
        running.stop().then(
          () => {
            running.app.log.info("stopped");
            process.exit(0);
          },
          (err) => {
            running.app.log.error({ err }, "shutdown failed");
            process.exit(1);
          },
        );
      }, drainMs);
    });
  }
}

main().catch((err) => {
  console.error("Workmetrics failed to start:", err instanceof Error ? err.message : err);
  process.exit(1);
});
