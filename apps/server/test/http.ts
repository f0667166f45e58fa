import { inject } from "vitest";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions that read them
export type Json = any;
export type ApiResponse = { status: number; headers: Headers; body: Json };

// A test file that starts a server of its own (to reach its database directly) points the helpers at it.
let own: string | null = null;
export const useServer = (url: string) => {
  own = url;
};
export const baseUrl = (): string => own ?? inject("baseUrl");

// fetch against the suite's server, JSON in and out.
export async function api(path: string, init: RequestInit & { json?: unknown } = {}): Promise<ApiResponse> {
  const { json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined) headers.set("content-type", "application/json");
  const res = await fetch(`${baseUrl()}${path}`, {
    ...rest,
    headers,
    body: json !== undefined ? JSON.stringify(json) : rest.body,
    redirect: "manual",
  });
  const text = await res.text();
  let body: Json = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body };
}
