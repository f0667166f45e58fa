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
    chunkSizeWarningLimit: 900,
    // What the entry imports statically loads on every page anyway: one chunk for all of it, so a lazy page that
    // shares a few MUI modules with it (the date pickers) cannot split the public pages' code into more files.
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: "initial", tags: ["$initial"] }] } } },
  },
});
