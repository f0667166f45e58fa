// `npm run dev`: the API server with reload (tsx watch) and Vite with hot module reload, side by side.
import { spawn } from "node:child_process";

const children = [
  spawn("npx", ["tsx", "watch", "--clear-screen=false", "apps/server/src/main.ts"], {
    stdio: "inherit",
    env: { ...process.env, PORT: process.env.PORT ?? "3000" },
  }),
  spawn("npx", ["vite", "--config", "apps/web/vite.config.ts", "apps/web"], { stdio: "inherit" }),
];
console.log("Workmetrics dev: API on http://localhost:3000, app with hot reload on http://localhost:5173");
const stop = () => {
  for (const c of children) c.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const c of children)
  c.on("exit", (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
