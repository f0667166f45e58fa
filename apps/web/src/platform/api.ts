import { errorMessage } from "@workmetrics/domain";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
  // The message for one field, from a 422's details.
  fieldErrors(): Record<string, string> {
    const details = (this.body as { details?: { field: string; message: string }[] } | null)?.details;
    return Object.fromEntries((details ?? []).map((d) => [d.field, d.message]));
  }
}

// JSON over fetch for the app's own API; errors carry the server's message.
export async function apiFetch<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined) headers.set("content-type", "application/json");
  headers.set("accept", "application/json");
  let res: Response;
  try {
    res = await fetch(path, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
  } catch {
    throw new ApiError(0, "Cannot reach the server. Check your connection and try again.", null);
  }
  const text = await res.text();
  const body: unknown = text ? safeParse(text) : null;
  if (!res.ok) throw new ApiError(res.status, errorMessage(body, `Request failed (${res.status})`), body);
  return body as T;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
