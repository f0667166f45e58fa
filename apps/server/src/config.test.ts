import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

const dir = () => mkdtempSync(path.join(os.tmpdir(), "wm-config-"));

describe("configuration from the environment (DESIGN §3.1)", () => {
  it("applies the documented defaults", () => {
    const c = loadConfig({ DATA_DIR: dir() });
    expect(c).toMatchObject({
      port: 3000,
      host: "0.0.0.0",
      databaseUrl: undefined,
      baseDomain: "localhost",
      publicUrl: "http://localhost:3000",
      seed: "demo",
    });
  });

  it("generates the JWT secret once and keeps it in DATA_DIR", () => {
    const d = dir();
    const first = loadConfig({ DATA_DIR: d }).jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: d }).jwtSecret).toBe(first);
  });

  it("names every bad variable in one message", () => {
    const bad = () =>
      loadConfig({ DATA_DIR: dir(), PORT: "seventy", DATABASE_URL: "mysql://x", SEED: "lots", JWT_SECRET: "short" });
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/PORT: .*\n.*DATABASE_URL: must be a postgres/s);
    expect(bad).toThrow(/SEED: must be demo, basic or none/);
    expect(bad).toThrow(/JWT_SECRET: must be at least 32 characters/);
  });

  it("limits requests: a statement timeout and a row cap, defaults 15000 ms and 1000 rows, validated", () => {
    expect(loadConfig({ DATA_DIR: dir() })).toMatchObject({ statementTimeoutMs: 15_000, maxRows: 1000 });
    expect(loadConfig({ DATA_DIR: dir(), STATEMENT_TIMEOUT_MS: "0", MAX_ROWS: "250" })).toMatchObject({
      statementTimeoutMs: 0,
      maxRows: 250,
    });
    const bad = () => loadConfig({ DATA_DIR: dir(), STATEMENT_TIMEOUT_MS: "soon", MAX_ROWS: "0" });
    expect(bad).toThrow(/STATEMENT_TIMEOUT_MS: must be a number of milliseconds/);
    expect(bad).toThrow(/MAX_ROWS: must be at least 1/);
    expect(() => loadConfig({ DATA_DIR: dir(), STATEMENT_TIMEOUT_MS: "1.5" })).toThrow(/whole number/);
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ DATA_DIR: dir(), DATABASE_URL: "", PORT: "" }).databaseUrl).toBeUndefined();
  });
});
