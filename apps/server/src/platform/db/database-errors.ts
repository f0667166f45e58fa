// Database failures that are not the request's fault nor a bug (issue 9 §3): the connection went away (an
// administrator, a failover, the server restarting or down) or the statement ran past STATEMENT_TIMEOUT_MS. Each
// surface answers them in its own error shape: 503 with Retry-After, or 504.

export type DatabaseTrouble =
  | { kind: "unavailable"; status: 503; message: string }
  | { kind: "timeout"; status: 504; message: string };

export const RETRY_AFTER_SECONDS = 1;

const UNAVAILABLE = "The database connection was lost; try again in a moment";
const TIMEOUT = "The request took too long and was stopped; narrow it with filters or try again";

// SQLSTATEs: 57P01–57P03 the server ended or refuses the session, 53300 too many connections, class 08 connection
// exceptions; 57014 a cancelled statement (statement_timeout).
const LOST_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH"]);
// node-postgres's own words for a client whose connection ended.
const LOST_MESSAGE =
  /Connection terminated|not queryable|Client was closed|Connection ended unexpectedly|timeout exceeded when trying to connect/;

export function databaseTrouble(err: unknown): DatabaseTrouble | null {
  // Drizzle wraps the driver's error (DrizzleQueryError keeps it as `cause`).
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === "object"; i++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code === "57014") return { kind: "timeout", status: 504, message: TIMEOUT };
    if (typeof code === "string" && (LOST_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || SOCKET_CODES.has(code))) {
      return { kind: "unavailable", status: 503, message: UNAVAILABLE };
    }
    if (typeof message === "string" && LOST_MESSAGE.test(message)) {
      return { kind: "unavailable", status: 503, message: UNAVAILABLE };
    }
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}
