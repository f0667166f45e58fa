// Prints the browser journeys of shard I of N (`node scripts/e2e-shard.mjs 1/2`), one path per line: the journeys
// split so that each shard's files weigh about the same, the largest file first to the lightest shard. A journey's
// size in bytes stands in for its running time (roughly: more steps, more time). CI runs the shards side by side,
// each with a server and a Chromium of its own. Shares (`1/2 64:36`) split unevenly: CI's shard 1 follows the
// shorter of its two other runs.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

const [index, count] = (process.argv[2] ?? "1/1").split("/").map(Number);
const shares = process.argv[3] ? process.argv[3].split(":").map(Number) : Array(count).fill(1);
if (!(count >= 1 && index >= 1 && index <= count) || shares.length !== count || !shares.every((x) => x > 0)) {
  console.error("usage: node scripts/e2e-shard.mjs I/N [share:share:…] (1 ≤ I ≤ N, N positive shares)");
  process.exit(2);
}
const dir = path.join(import.meta.dirname, "../e2e/tests");
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".e2e.test.ts"))
  .map((f) => ({ file: path.join("e2e/tests", f), weight: statSync(path.join(dir, f)).size }))
  .sort((a, b) => b.weight - a.weight || a.file.localeCompare(b.file));
const shards = shares.map((share) => ({ share, weight: 0, files: [] }));
for (const f of files) {
  const lightest = shards.reduce((a, b) => (b.weight / b.share < a.weight / a.share ? b : a));
  lightest.weight += f.weight;
  lightest.files.push(f.file);
}
console.log(shards[index - 1].files.sort().join("\n"));
