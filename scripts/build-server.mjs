// `npm run build` (after the web build): bundles the server into apps/server/dist/main.js so `npm start` runs plain
// JavaScript instead of compiling TypeScript at every start. Packages stay in node_modules, except our own
// @workmetrics/domain, which is TypeScript source and is bundled.
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const outdir = path.join(root, "apps/server/dist");

// Packages load from node_modules at run time (PGlite finds its WASM and extension files there); ours are bundled.
const externalPackages = {
  name: "external-packages",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@workmetrics/") ? undefined : { path: args.path, external: true },
    );
  },
};

// A source file that reads from disk beside itself (migrations, the common-password list, the web build) uses
// import.meta.dirname; in the bundle each file keeps its own directory, so those paths resolve as they do from src.
const ownDirname = {
  name: "own-dirname",
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      if (/import\.meta\.(url|filename)\b/.test(source)) {
        throw new Error(`${path.relative(root, args.path)}: use import.meta.dirname (the build rewrites only that)`);
      }
      const dir = path.relative(outdir, path.dirname(args.path)).split(path.sep).join("/");
      const contents = source.replaceAll("import.meta.dirname", `(import.meta.dirname + ${JSON.stringify(`/${dir}`)})`);
      return { contents, loader: "ts" };
    });
  },
};

const started = performance.now();
await build({
  entryPoints: [
    path.join(root, "apps/server/src/main.ts"),
    path.join(root, "apps/server/src/migrate.ts"), // npm run migrate
    path.join(root, "apps/server/src/make-base-snapshot.ts"),
  ],
  outdir,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  // Issue 21 §5: main.js stays small — it listens first (platform/http/early.ts), then imports the app, which lands in
  // chunks of its own with the code the other entries share.
  splitting: true,
  chunkNames: "chunk-[hash]", // beside main.js: import.meta.dirname is the bundle directory in every file (own-dirname)
  sourcemap: "linked",
  logLevel: "warning",
  plugins: [externalPackages, ownDirname],
});
console.log(`server bundled to apps/server/dist/main.js in ${Math.round(performance.now() - started)} ms`);

// The migrated schema a new embedded database starts from (platform/db/base-snapshot.ts).
const made = spawnSync(process.execPath, [path.join(outdir, "make-base-snapshot.js")], { stdio: "inherit" });
if (made.status !== 0) process.exit(made.status ?? 1);
