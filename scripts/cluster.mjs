// `npm run cluster` / `npm run cluster:stop` (issue 25, DESIGN §3.1): Workmetrics scaled out on one machine with
// real parts — a PostgreSQL primary (DATABASE_URL's, or one started here), a streaming replica made with
// `pg_basebackup -R`, INSTANCES app instances sharing JWT_SECRET, SECRETS_KEY and the file store (one DATA_DIR),
// and nginx on CLUSTER_PORT in front. What is missing (nginx, PostgreSQL's server tools) is installed from Debian's
// packages, and said. Everything it starts lives under $DATA_DIR/cluster: the databases, nginx's configuration,
// the logs, and instances.json ({"pid","port","id"} per instance) for an operator or the fault test.
//
//   node scripts/cluster.mjs start            (npm run cluster)
//   node scripts/cluster.mjs stop             (npm run cluster:stop)
//   node scripts/cluster.mjs status
//   node scripts/cluster.mjs restart <n> [--kill]   one instance: SIGTERM (or SIGKILL), then start it again
//   node scripts/cluster.mjs rolling-restart  every instance, one at a time, each ready before the next
//   node scripts/cluster.mjs reload-nginx
//   node scripts/cluster.mjs replica stop|start, primary restart
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const root = path.resolve(import.meta.dirname, "..");
const env = process.env;
const INSTANCES = Number(env.INSTANCES ?? 3);
const CLUSTER_PORT = Number(env.CLUSTER_PORT ?? 8080);
const FIRST_PORT = Number(env.CLUSTER_FIRST_PORT ?? 3101);
const PRIMARY_PORT = Number(env.CLUSTER_PRIMARY_PORT ?? 5433);
const REPLICA_PORT = Number(env.CLUSTER_REPLICA_PORT ?? 5434);
const DATA_DIR = path.resolve(root, env.DATA_DIR ?? "data");
const DIR = path.join(DATA_DIR, "cluster");
const STATE = path.join(DIR, "cluster.json");
const INSTANCES_FILE = path.join(DIR, "instances.json");
const LOGS = path.join(DIR, "logs");
const SEED = env.SEED ?? "demo";

const say = (msg) => console.log(`cluster: ${msg}`);
const fail = (msg) => {
  console.error(`cluster: ${msg}`);
  process.exit(1);
};
const isRoot = process.getuid?.() === 0;

// ---- tools --------------------------------------------------------------------------------------------------------

const which = (cmd) => spawnSync("sh", ["-c", `command -v ${cmd}`], { encoding: "utf8" }).stdout.trim() || null;

function aptInstall(pkgs, why) {
  if (!isRoot) fail(`${why}: install ${pkgs.join(" ")} (apt-get install -y ${pkgs.join(" ")}) and run again`);
  say(`${why}: installing ${pkgs.join(" ")} from Debian's packages`);
  const opts = { stdio: "inherit", env: { ...env, DEBIAN_FRONTEND: "noninteractive" } };
  spawnSync("apt-get", ["update", "-qq"], opts);
  const r = spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...pkgs], opts);
  if (r.status !== 0) fail(`apt-get install ${pkgs.join(" ")} failed`);
}

function nginxBin() {
  let bin = which("nginx") ?? (existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : null);
  if (!bin) {
    aptInstall(["nginx-light"], "nginx is not installed");
    // Debian starts its own nginx on port 80 on install; ours runs with a configuration of its own beside it.
    bin = which("nginx") ?? "/usr/sbin/nginx";
  }
  return bin;
}

function pgBinDir() {
  const find = () => {
    const base = "/usr/lib/postgresql";
    if (!existsSync(base)) return null;
    const versions = readdirSync(base)
      .filter(
        (v) =>
          existsSync(path.join(base, v, "bin", "pg_basebackup")) && existsSync(path.join(base, v, "bin", "initdb")),
      )
      .sort((a, b) => Number(b) - Number(a));
    return versions.length ? path.join(base, versions[0], "bin") : null;
  };
  let dir = find();
  if (!dir) {
    aptInstall(["postgresql"], "PostgreSQL's server tools (initdb, pg_basebackup, pg_ctl) are not installed");
    dir = find();
    if (!dir) fail("PostgreSQL's tools are still missing after the install");
  }
  return dir;
}

// PostgreSQL's servers refuse to run as root: as root, they run as the postgres user.
function asPostgres(bin, args, opts = {}) {
  const cmd = isRoot ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  const r = spawnSync(cmd[0], cmd[1], { encoding: "utf8", ...opts });
  if (r.status !== 0 && !opts.allowFail) {
    fail(`${path.basename(bin)} ${args.join(" ")} failed:\n${r.stderr || r.stdout}`);
  }
  return r;
}

function ownByPostgres(dir) {
  mkdirSync(dir, { recursive: true });
  if (isRoot) execFileSync("chown", ["-R", "postgres:postgres", dir]);
}

// ---- state --------------------------------------------------------------------------------------------------------

const readJson = (file, fallback) => {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return fallback;
  }
};
const writeJson = (file, value) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// Made once and kept: equal on every instance (DESIGN §3.1).
function secrets() {
  const file = path.join(DIR, "secrets.json");
  const kept = readJson(file, null);
  if (kept) return kept;
  const made = {
    JWT_SECRET: env.JWT_SECRET ?? randomBytes(48).toString("base64url"),
    SECRETS_KEY: env.SECRETS_KEY ?? randomBytes(32).toString("hex"),
    METRICS_TOKEN: env.METRICS_TOKEN ?? randomBytes(24).toString("base64url"),
  };
  writeFileSync(file, JSON.stringify(made, null, 2), { mode: 0o600 });
  return made;
}

// ---- PostgreSQL -----------------------------------------------------------------------------------------------------

const PRIMARY_DIR = path.join(DIR, "primary");
const REPLICA_DIR = path.join(DIR, "replica");
const localUrl = (port, db = "workmetrics") => `postgres://postgres@127.0.0.1:${port}/${db}`;

function pgCtl(bin, dir, action, logName) {
  // Started already (a start that failed half-way, run again): leave it running.
  if (
    action === "start" &&
    asPostgres(path.join(bin, "pg_ctl"), ["status", "-D", dir], { allowFail: true }).status === 0
  ) {
    return { status: 0 };
  }
  const args = ["-D", dir, "-w", "-t", "120"];
  if (action === "start" || action === "restart")
    args.push("-l", path.join(LOGS, `${logName ?? path.basename(dir)}.log`));
  if (action === "stop" || action === "restart") args.push("-m", "fast");
  return asPostgres(path.join(bin, "pg_ctl"), [action, ...args], { allowFail: action === "stop" });
}

function startPrimary(bin) {
  ownByPostgres(LOGS); // pg_ctl -l writes there as postgres
  if (!existsSync(path.join(PRIMARY_DIR, "PG_VERSION"))) {
    say(`a PostgreSQL primary of its own in ${path.relative(root, PRIMARY_DIR)} on port ${PRIMARY_PORT} (initdb)`);
    ownByPostgres(PRIMARY_DIR);
    asPostgres(path.join(bin, "initdb"), ["-D", PRIMARY_DIR, "-U", "postgres", "--auth=trust", "-E", "UTF8"]);
    const conf = [
      `port = ${PRIMARY_PORT}`,
      "listen_addresses = '127.0.0.1'",
      "unix_socket_directories = '/tmp'",
      "wal_level = replica",
      "max_wal_senders = 10",
      "wal_keep_size = '512MB'",
      "hot_standby = on",
      "max_connections = 300",
      "shared_buffers = '256MB'",
      "synchronous_commit = on",
    ];
    writeFileSync(
      path.join(PRIMARY_DIR, "postgresql.conf"),
      `${readFileSync(path.join(PRIMARY_DIR, "postgresql.conf"), "utf8")}\n# npm run cluster\n${conf.join("\n")}\n`,
    );
    // Local only, without passwords: a cluster on one machine. In production: scram-sha-256 and a replication role.
    writeFileSync(
      path.join(PRIMARY_DIR, "pg_hba.conf"),
      "local all all trust\nhost all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\n",
    );
    ownByPostgres(PRIMARY_DIR);
  }
  pgCtl(bin, PRIMARY_DIR, "start", "primary");
  const psql = path.join(bin, "psql");
  const has = asPostgres(psql, [
    "-h",
    "127.0.0.1",
    "-p",
    String(PRIMARY_PORT),
    "-U",
    "postgres",
    "-Atc",
    "select 1 from pg_database where datname = 'workmetrics'",
  ]);
  if (!has.stdout.trim())
    asPostgres(psql, [
      "-h",
      "127.0.0.1",
      "-p",
      String(PRIMARY_PORT),
      "-U",
      "postgres",
      "-c",
      "create database workmetrics",
    ]);
  return localUrl(PRIMARY_PORT);
}

function startReplica(bin, primaryUrl) {
  if (!existsSync(path.join(REPLICA_DIR, "PG_VERSION"))) {
    say(
      `a streaming replica of the primary in ${path.relative(root, REPLICA_DIR)} on port ${REPLICA_PORT} (pg_basebackup -R)`,
    );
    rmSync(REPLICA_DIR, { recursive: true, force: true });
    ownByPostgres(REPLICA_DIR);
    chmodSync(REPLICA_DIR, 0o700); // PostgreSQL refuses a data directory others can read
    asPostgres(path.join(bin, "pg_basebackup"), [
      "-d",
      primaryUrl.replace(/\/[^/]*$/, "/postgres"),
      "-D",
      REPLICA_DIR,
      "-R",
      "-X",
      "stream",
      "-c",
      "fast",
    ]);
    writeFileSync(
      path.join(REPLICA_DIR, "postgresql.auto.conf"),
      `${readFileSync(path.join(REPLICA_DIR, "postgresql.auto.conf"), "utf8")}port = ${REPLICA_PORT}\nhot_standby = on\nhot_standby_feedback = on\nmax_standby_streaming_delay = '5s'\n`,
    );
    ownByPostgres(REPLICA_DIR);
  }
  pgCtl(bin, REPLICA_DIR, "start", "replica");
  return localUrl(REPLICA_PORT, new URL(primaryUrl).pathname.slice(1) || "postgres");
}

// ---- instances ----------------------------------------------------------------------------------------------------

// The app's own settings given to `npm run cluster` are kept, so an instance restarted later (restart,
// rolling-restart) runs as the others do.
const APP_VARS =
  /^(AUTH_|LOG_LEVEL$|SMTP_URL$|BASE_DOMAIN$|JOB_RETRY_MS$|STATEMENT_TIMEOUT_MS$|MAX_ROWS$|SHUTDOWN_|META_|MS_|S3_)/;

function instanceEnv(state, n) {
  const s = secrets();
  return {
    ...env,
    ...(state.appEnv ?? {}),
    PORT: String(FIRST_PORT + n - 1),
    HOST: "127.0.0.1",
    NODE_ENV: env.NODE_ENV ?? "production",
    DATABASE_URL: state.primaryUrl,
    ...(state.replicaUrl ? { DATABASE_REPLICA_URL: state.replicaUrl } : {}),
    DATA_DIR,
    INSTANCE_ID: `i${n}`,
    JWT_SECRET: s.JWT_SECRET,
    SECRETS_KEY: s.SECRETS_KEY,
    METRICS_TOKEN: s.METRICS_TOKEN,
    TRUST_PROXY: "127.0.0.1",
    PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${CLUSTER_PORT}`,
    SEED,
    SHUTDOWN_TIMEOUT_MS: env.SHUTDOWN_TIMEOUT_MS ?? "25000",
  };
}

function spawnInstance(state, n) {
  const log = openSync(path.join(LOGS, `i${n}.log`), "a");
  const child = spawn(process.execPath, [path.join(root, "apps/server/dist/main.js")], {
    env: instanceEnv(state, n),
    detached: true,
    stdio: ["ignore", log, log],
  });
  child.unref();
  closeSync(log);
  return { id: `i${n}`, pid: child.pid, port: FIRST_PORT + n - 1 };
}

async function waitReady(port, timeoutMs = 180_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/ready`);
      if (r.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`the instance on port ${port} was not ready in ${timeoutMs / 1000} s`);
}

async function waitExit(pid, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (alive(pid) && Date.now() < until) await sleep(100);
  return !alive(pid);
}

async function stopInstance(inst, signal = "SIGTERM") {
  if (!alive(inst.pid)) return;
  process.kill(inst.pid, signal);
  if (!(await waitExit(inst.pid, 40_000))) {
    say(`instance ${inst.id} did not stop in 40 s; killing it`);
    process.kill(inst.pid, "SIGKILL");
    await waitExit(inst.pid, 5_000);
  }
}

// ---- nginx --------------------------------------------------------------------------------------------------------

const NGINX_DIR = path.join(DIR, "nginx");

function nginxConf(ports) {
  // The headers every proxied request carries: the Host kept (workspace hosts), the client's address, the request
  // id (the client's, or one nginx makes) that the app logs as reqId.
  const headers = `
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Request-Id $req_id;`;
  const retry = "error timeout http_502 http_503 http_504";
  return `# Made by scripts/cluster.mjs (npm run cluster); remade at each start.
worker_processes auto;
pid ${NGINX_DIR}/nginx.pid;
error_log ${LOGS}/nginx-error.log warn;
${isRoot ? "user root root;" : ""}
events { worker_connections 4096; }

http {
  client_body_temp_path ${NGINX_DIR}/tmp/body;
  proxy_temp_path ${NGINX_DIR}/tmp/proxy;
  fastcgi_temp_path ${NGINX_DIR}/tmp/fastcgi;
  uwsgi_temp_path ${NGINX_DIR}/tmp/uwsgi;
  scgi_temp_path ${NGINX_DIR}/tmp/scgi;
  client_max_body_size 10m;
  server_tokens off;

  # The request id: the client's X-Request-Id if it sent one, else nginx's own; logged here and by the app.
  map $http_x_request_id $req_id { default $http_x_request_id; "" $request_id; }
  log_format cluster '$time_iso8601 $remote_addr "$request" $status $body_bytes_sent $request_time '
                     'rid=$req_id upstream=$upstream_addr ustatus=$upstream_status utime=$upstream_response_time';
  access_log ${LOGS}/nginx-access.log cluster;

  # A POST may go to a second instance only when it carries an Idempotency-Key (the app runs a command once per
  # key), so those are sent to a location that allows it (proxy_next_upstream takes no variables).
  map "$request_method:$http_idempotency_key" $retry_post { "~^POST:." 1; default 0; }

  upstream workmetrics {
    least_conn;
${ports.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join("\n")}
    keepalive 64;
  }

  server {
    listen ${CLUSTER_PORT};
    server_name _;
    proxy_connect_timeout 2s;
    proxy_send_timeout 60s;
    proxy_read_timeout 60s;
    # GET and HEAD (and the POSTs below) go to the next instance when one fails before answering; at most twice more.
    proxy_next_upstream ${retry};
    proxy_next_upstream_tries 3;
    proxy_next_upstream_timeout 15s;

    # For the operator, straight at an instance with METRICS_TOKEN: never through the public front.
    location = /metrics { return 404; }

    # Realtime: the WebSocket upgrade, and a read timeout above the 30 s heartbeat (the app closes sockets silent 75 s).
    location /realtime/ {${headers}
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection "upgrade";
      proxy_read_timeout 120s;
      proxy_send_timeout 120s;
      proxy_buffering off;
      proxy_pass http://workmetrics;
    }

    location / {${headers}
      proxy_set_header Connection "";
      error_page 418 = @retry_post;
      if ($retry_post) { return 418; }
      proxy_pass http://workmetrics;
    }

    location @retry_post {${headers}
      proxy_set_header Connection "";
      proxy_next_upstream ${retry} non_idempotent;
      proxy_pass http://workmetrics;
    }
  }
}
`;
}

function startNginx(bin, ports) {
  mkdirSync(path.join(NGINX_DIR, "tmp"), { recursive: true });
  writeFileSync(path.join(NGINX_DIR, "nginx.conf"), nginxConf(ports));
  const args = ["-p", NGINX_DIR, "-c", path.join(NGINX_DIR, "nginx.conf")];
  const test = spawnSync(bin, ["-t", "-q", ...args], { encoding: "utf8" });
  if (test.status !== 0) fail(`nginx's configuration is refused:\n${test.stderr}`);
  const pid = readJson(path.join(NGINX_DIR, "nginx.pid"), null);
  if (pid && alive(pid)) {
    spawnSync(bin, [...args, "-s", "reload"], { stdio: "inherit" });
  } else {
    const r = spawnSync(bin, args, { encoding: "utf8" });
    if (r.status !== 0) fail(`nginx did not start:\n${r.stderr}`);
  }
}

// ---- commands -----------------------------------------------------------------------------------------------------

async function start() {
  mkdirSync(LOGS, { recursive: true });
  const running = readJson(INSTANCES_FILE, []).filter((i) => alive(i.pid));
  if (running.length) fail(`already running (${running.map((i) => i.id).join(", ")}); npm run cluster:stop first`);
  const nginx = nginxBin();
  const bin = pgBinDir();
  const appEnv = Object.fromEntries(Object.entries(env).filter(([k]) => APP_VARS.test(k)));
  const state = { ownPrimary: !env.DATABASE_URL, pgBin: bin, nginx, appEnv };
  writeJson(STATE, state); // first, so that a stop after a start that failed half-way finds what it started
  state.primaryUrl = env.DATABASE_URL ?? startPrimary(bin);
  if (env.DATABASE_URL) say(`primary: DATABASE_URL (${new URL(env.DATABASE_URL).host})`);
  if (env.CLUSTER_REPLICA === "0") {
    say("no replica (CLUSTER_REPLICA=0): every read on the primary");
  } else {
    state.replicaUrl = startReplica(bin, state.primaryUrl);
  }
  writeJson(STATE, state);

  if (!existsSync(path.join(root, "apps/server/dist/main.js")) || process.argv.includes("--build")) {
    say("building (npm run build)");
    const r = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
    if (r.status !== 0) fail("the build failed");
  }
  say(`migrating and seeding once (npm run migrate, SEED=${SEED})`);
  const m = spawnSync(process.execPath, [path.join(root, "apps/server/dist/migrate.js")], {
    env: instanceEnv(state, 1),
    stdio: "inherit",
  });
  if (m.status !== 0) fail("npm run migrate failed");

  const instances = [];
  for (let n = 1; n <= INSTANCES; n++) instances.push(spawnInstance(state, n));
  writeJson(INSTANCES_FILE, instances);
  await Promise.all(instances.map((i) => waitReady(i.port)));
  startNginx(
    nginx,
    instances.map((i) => i.port),
  );
  say(`${INSTANCES} instances (${instances.map((i) => `${i.id}:${i.port}`).join(", ")}) behind nginx`);
  say(
    `ready on http://localhost:${CLUSTER_PORT}  (logs: ${path.relative(root, LOGS)}, metrics: curl -H "Authorization: Bearer $(jq -r .METRICS_TOKEN ${path.relative(root, path.join(DIR, "secrets.json"))})" http://127.0.0.1:${FIRST_PORT}/metrics)`,
  );
}

async function stop() {
  const state = readJson(STATE, null);
  const instances = readJson(INSTANCES_FILE, []);
  await Promise.all(instances.map((i) => stopInstance(i)));
  if (instances.length) say(`stopped ${instances.length} instances`);
  writeJson(INSTANCES_FILE, []);
  const pid = readJson(path.join(NGINX_DIR, "nginx.pid"), null);
  if (pid && alive(pid)) {
    process.kill(pid, "SIGQUIT");
    await waitExit(pid, 10_000);
    say("stopped nginx");
  }
  if (state) {
    if (existsSync(path.join(REPLICA_DIR, "postmaster.pid"))) {
      pgCtl(state.pgBin, REPLICA_DIR, "stop");
      say("stopped the replica");
    }
    if (state.ownPrimary && existsSync(path.join(PRIMARY_DIR, "postmaster.pid"))) {
      pgCtl(state.pgBin, PRIMARY_DIR, "stop");
      say("stopped the primary");
    }
  }
}

async function restartOne(n, signal) {
  const state = readJson(STATE, null);
  if (!state) fail("not running");
  const instances = readJson(INSTANCES_FILE, []);
  const i = instances.findIndex((x) => x.id === `i${n}`);
  if (i < 0) fail(`no instance i${n}`);
  await stopInstance(instances[i], signal);
  instances[i] = spawnInstance(state, n);
  writeJson(INSTANCES_FILE, instances);
  await waitReady(instances[i].port);
  return instances[i];
}

async function main() {
  const [cmd = "start", arg] = process.argv.slice(2);
  switch (cmd) {
    case "start":
      return start();
    case "stop":
      return stop();
    case "status": {
      const instances = readJson(INSTANCES_FILE, []);
      for (const i of instances) say(`${i.id} pid ${i.pid} port ${i.port} ${alive(i.pid) ? "running" : "gone"}`);
      if (!instances.length) say("not running");
      return;
    }
    case "restart": {
      const inst = await restartOne(Number(arg), process.argv.includes("--kill") ? "SIGKILL" : "SIGTERM");
      return say(`${inst.id} restarted (pid ${inst.pid})`);
    }
    case "rolling-restart": {
      const instances = readJson(INSTANCES_FILE, []);
      for (const i of instances) {
        const started = Date.now();
        const inst = await restartOne(Number(i.id.slice(1)), "SIGTERM");
        say(`${inst.id} restarted in ${Date.now() - started} ms`);
      }
      return;
    }
    case "reload-nginx": {
      // reload-nginx <k>: only the first k instances behind nginx (the throughput bench); none: all of them.
      const instances = readJson(INSTANCES_FILE, []).slice(0, arg ? Number(arg) : undefined);
      startNginx(
        nginxBin(),
        instances.map((i) => i.port),
      );
      return say("nginx reloaded");
    }
    case "replica": {
      const state = readJson(STATE, null);
      pgCtl(state.pgBin, REPLICA_DIR, arg === "stop" ? "stop" : "start", "replica");
      return say(`replica ${arg === "stop" ? "stopped" : "started"}`);
    }
    case "primary": {
      const state = readJson(STATE, null);
      if (!state.ownPrimary) fail("the primary is DATABASE_URL's, not this cluster's");
      pgCtl(state.pgBin, PRIMARY_DIR, "restart", "primary");
      return say("primary restarted");
    }
    default:
      fail(
        `unknown command ${cmd}: start, stop, status, restart <n> [--kill], rolling-restart, reload-nginx, replica stop|start, primary restart`,
      );
  }
}

main().catch((err) => fail(err instanceof Error ? err.message : String(err)));
