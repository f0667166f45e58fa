import { describe, expect, it } from "vitest";
import { databaseTrouble } from "./database-errors.ts";

describe("databaseTrouble", () => {
  it("answers a lost connection 503, whichever way the driver words it", () => {
    for (const err of [
      Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
      new Error("Connection terminated unexpectedly"),
      new Error("Client has encountered a connection error and is not queryable"),
      // The pool's wait for a connection ran out (connectionTimeoutMillis): the request is answered, not held.
      new Error("timeout exceeded when trying to connect"),
    ]) {
      expect(databaseTrouble(err)?.status).toBe(503);
    }
  });

  it("finds the driver's error inside drizzle's wrapper", () => {
    const cause = Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" });
    expect(databaseTrouble(Object.assign(new Error("Failed query: select 1"), { cause }))?.status).toBe(504);
  });

  it("leaves the request's own errors alone", () => {
    expect(databaseTrouble(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBeNull();
    expect(databaseTrouble(new Error("boom"))).toBeNull();
  });
});
