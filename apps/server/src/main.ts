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
