// Issue 25 §5, the fault test: mixed load through nginx on a running `npm run cluster` while instances are killed
// (SIGKILL) and restarted, every instance is restarted one at a time (SIGTERM), nginx is reloaded, the replica is
// stopped and started, and the primary is restarted once. Then it checks what the clients were told against the
// database, and prints the figures. The scenario (the load, the faults, the checks) is
// apps/server/test/cluster-scenario.ts, which CI runs for about a minute (cluster-faults.api.test.ts).
//
//   AUTH_RATE_LIMITS=sign_in=100000/300,token_refresh=100000/300 SEED=basic \
//     META_APP_SECRET=fault-secret META_GRAPH_URL=http://127.0.0.1:18990 npm run cluster
//   FAULT_SECONDS=600 META_APP_SECRET=fault-secret node --import tsx bench/cluster-faults.ts
//
// FAULT_SECONDS: the load's length (default 120 s; 600 for the full run). WORKERS: client loops (default 6).
// With META_APP_SECRET (the cluster's), signed Meta webhooks are part of the load: the bench serves a fake Graph API
// on FAKE_META_PORT (default 18990, the cluster's META_GRAPH_URL) to connect a WhatsApp number of its own.
import path from "node:path";
import { runFaultScenario } from "../apps/server/test/cluster-scenario.ts";
import { type FakeMeta, startFakeMeta } from "../apps/server/test/fake-meta-graph.ts";

const root = path.resolve(import.meta.dirname, "..");
const secret = process.env.META_APP_SECRET;
let fake: FakeMeta | undefined;
if (secret) fake = await startFakeMeta(Number(process.env.FAKE_META_PORT ?? 18990));
else console.log("no META_APP_SECRET: the load has no webhooks (set it as the cluster's to add them)");

const { problems } = await runFaultScenario({
  base: `http://localhost:${process.env.CLUSTER_PORT ?? 8080}`,
  dataDir: path.resolve(root, process.env.DATA_DIR ?? "data"),
  seconds: Number(process.env.FAULT_SECONDS ?? 120),
  workers: Number(process.env.WORKERS ?? 6),
  plan: process.env.FAULT_PLAN === "short" ? "short" : "full",
  env: process.env,
  meta: secret && fake ? { secret, fake } : undefined,
});
await fake?.close();
process.exit(problems.length ? 1 : 0);
