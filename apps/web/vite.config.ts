import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const server = process.env.WORKMETRICS_SERVER ?? "http://localhost:3000";
const proxied = ["/api", "/auth/v1", "/rest/v1", "/storage/v1", "/realtime", "/webhooks", "/dev/mailbox"];

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    host: true,
    allowedHosts: [".localhost"],
    proxy: Object.fromEntries(proxied.map((p) => [p, { target: server, changeOrigin: false, ws: p === "/realtime" }])),
  },
  build: {
    sourcemap: false,
    // The server reads the chunk graph to list what a role app's service worker precaches (issue 22).
    manifest: true,
    chunkSizeWarningLimit: 900,
    // Two groups keep the landing page at three files. "initial": what the entry imports statically (React, the
    // router, MUI's core, the public header) loads on every page anyway, so one chunk, and a lazy page sharing a few
    // MUI modules with it cannot split it. The entry stays small by importing everything else lazily: the session
    // client, the dashboard's routes and shell, the toaster, the mobile menu. "landing": the landing page with
    // what it needs beyond the entry (useQuery, the API helper, Skeleton, its icons) in one file instead of a dozen
    // small ones; later pages that share those small modules load this one chunk, cached, instead.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: "initial", tags: ["$initial"], priority: 2 },
            { name: "landing", test: /src[\\/]public[\\/](Landing|TierCards|CaseStudies|queries)\.tsx?$/, priority: 1 },
          ],
        },
      },
    },
  },
});
