// The client side of bench/documents.ts's submit phase, in a thread of its own: the server under test runs in the
// bench's main thread, and a client sharing that thread's event loop would spend the server's CPU on its own fetches
// and JSON. Submits the given drafts from `workers` loops for at most `seconds`; answers each submit's latency.
// workerData: { url, headers, type, ids, workers, seconds } (plain JavaScript: a worker thread loads no TypeScript).
import { performance } from "node:perf_hooks";
import { parentPort, workerData } from "node:worker_threads";

const job = workerData;
const latencies = [];
let next = 0;
const t0 = performance.now();
const end = t0 + job.seconds * 1000;
async function loop() {
  while (performance.now() < end && next < job.ids.length) {
    const id = job.ids[next++];
    const t = performance.now();
    const res = await fetch(`${job.url}/rest/v1/rpc/document_transition`, {
      method: "POST",
      headers: job.headers,
      body: JSON.stringify({ type: job.type, id, action: "submit" }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`submit ${id}: ${res.status} ${text}`);
    latencies.push(performance.now() - t);
  }
}
await Promise.all(Array.from({ length: job.workers }, loop));
parentPort?.postMessage({ latencies, seconds: (performance.now() - t0) / 1000 });
