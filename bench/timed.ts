// One warm-up run, then `requests` timed runs one after another; prints p50 and p95 (issue 11 benches).
export async function timed(name: string, requests: number, run: (i: number) => Promise<unknown>): Promise<void> {
  await run(0);
  const ms: number[] = [];
  for (let i = 0; i < requests; i++) {
    const t = performance.now();
    await run(i + 1);
    ms.push(performance.now() - t);
  }
  ms.sort((x, y) => x - y);
  const at = (p: number) => ms[Math.min(ms.length - 1, Math.floor(ms.length * p))];
  console.log(
    `${name.padEnd(58)} p50 ${at(0.5).toFixed(1).padStart(7)} ms   p95 ${at(0.95).toFixed(1).padStart(7)} ms`,
  );
}
