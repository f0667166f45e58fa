// `npm test`: the build (web app and server), then unit and API suites always, and the browser journeys when
// Chromium is found (CHROME_PATH or /usr/bin/chromium). CI runs typecheck and lint before it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const chrome = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const withBrowser = existsSync(chrome);
const db = process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite";
const run = (cmd, args) => spawnSync(cmd, args, { stdio: "inherit", shell: false }).status ?? 1;

console.log(`\n▶ Workmetrics tests on ${db}${withBrowser ? ` with Chromium at ${chrome}` : ""}`);
if (!withBrowser) {
  console.log(
    `! Chromium not found at ${chrome}: browser tests are SKIPPED. Install it (apt-get install -y chromium) or set CHROME_PATH.`,
  );
}
// The server under test serves the built app (API tests check the SPA fallback and caching too). CI's second pass
// (PostgreSQL) reuses the first pass's build: TEST_SKIP_BUILD=1.
if (process.env.TEST_SKIP_BUILD !== "1" && run("npm", ["run", "build", "--silent"]) !== 0) {
  console.error("✗ build failed");
  process.exit(1);
}

// TEST_PROJECTS=api (a comma list) runs only those suites: CI runs the database-independent unit tests and the
// browser journeys once, on PGlite, and the API suite on both databases.
const wanted = process.env.TEST_PROJECTS?.split(",").map((p) => p.trim());
const projects = ["unit", "api", ...(withBrowser ? ["e2e"] : [])].filter((p) => !wanted || wanted.includes(p));
// No suite left (the journeys asked for without Chromium): nothing runs, rather than every suite.
if (projects.length === 0) {
  console.log("! none of the suites asked for can run here");
  process.exit(0);
}
// TEST_REPORT_DIR: CI runs the two databases side by side, each with a report of its own.
const reportDir = path.resolve(process.env.TEST_REPORT_DIR ?? ".test-results");
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });
const report = path.join(reportDir, "vitest.json");
const args = [
  "vitest",
  "run",
  ...projects.flatMap((p) => ["--project", p]),
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
];
const status = run("npx", args);

// A plain closing line that CI reads in any language: "N passed, N failed, N skipped".
if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, "utf8"));
  console.log(
    `\ntests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`,
  );
}
process.exit(status);
