import { MESSAGES } from "./errors.ts";
import { workspaceFromPath } from "./routes.ts";
import { TIER } from "./tiers.ts";

// DESIGN §3.3: platform hosts, workspace hosts and role apps.
export type RoleApp = "main" | "pos" | "driver" | "warehouse";
export type HostInfo =
  | { kind: "bare" }
  | { kind: "platform"; sub: "app" | "admin" | "www" }
  | { kind: "workspace"; slug: string; app: RoleApp };

export const RESERVED_SLUGS = ["app", "admin", "www", "pos", "driver", "warehouse", "api", "auth", "mail", "static"];

export function parseHost(host: string, baseDomain: string): HostInfo {
  const name = host.toLowerCase().replace(/:\d+$/, "");
  const base = baseDomain.toLowerCase();
  if (name === base || !name.endsWith(`.${base}`)) return { kind: "bare" };
  const labels = name.slice(0, -(base.length + 1)).split(".");
  if (labels.length === 1 && (labels[0] === "app" || labels[0] === "admin" || labels[0] === "www")) {
    return { kind: "platform", sub: labels[0] };
  }
  const app =
    labels.length === 2 && ["pos", "driver", "warehouse"].includes(labels[1]) ? (labels[1] as RoleApp) : "main";
  return { kind: "workspace", slug: labels[0], app };
}

export function workspaceHost(slug: string, baseDomain: string, app: RoleApp = "main", port?: string): string {
  const host = app === "main" ? `${slug}.${baseDomain}` : `${slug}.${app}.${baseDomain}`;
  return port ? `${host}:${port}` : host;
}

export type HostUser = { roleId: number; workspaceSlug: string; tierId: number; isOwner: boolean };
export type HostDecision =
  | { action: "allow" }
  | { action: "redirect"; to: string; message?: string }
  | { action: "signOut"; toHost: string | null; path: string; message?: string };

// The host rules in order; pure so both the server and the browser apply the same ones.
export function decideHost(args: {
  host: string;
  path: string;
  baseDomain: string;
  user: HostUser | null;
}): HostDecision {
  const { host, path, baseDomain, user } = args;
  const info = parseHost(host, baseDomain);
  // /_workspaces/{slug}/… on any host names a workspace too: signed in, another workspace's address sends the person
  // to the same page of their own (issue 21 §1: it showed their data under the other's address). Owners too — they
  // are exempt from being signed out of another workspace's host, not from seeing their own data under their address.
  const named = workspaceFromPath(path);
  if (user && named !== null && named !== user.workspaceSlug) {
    return {
      action: "redirect",
      to: path.replace(/^\/_workspaces\/[^/]+/, `/_workspaces/${encodeURIComponent(user.workspaceSlug)}`),
      message: `Your account belongs to the ${user.workspaceSlug} workspace, not ${named}: here is the same page in yours.`,
    };
  }
  if (info.kind === "bare") return { action: "allow" };
  if (!user) {
    // Spec §2: the root of a sub-domain host (first label not www) goes to the login route.
    const subdomain = info.kind === "workspace" || info.sub !== "www";
    if (path === "/" && subdomain) return { action: "redirect", to: "/auth/login" };
    return { action: "allow" };
  }
  const atRoot = path === "/";
  if (info.kind === "platform") {
    if (user.isOwner) return { action: "allow" };
    // Issue 9: the person is told why they were sent away (on the new host, where they sign in again).
    return {
      action: "signOut",
      toHost: workspaceHost(user.workspaceSlug, baseDomain),
      path: atRoot ? "/auth/login" : path,
      message: `${host} is the platform's address. Your workspace has its own: sign in here to continue.`,
    };
  }
  if (info.slug !== user.workspaceSlug && !user.isOwner) {
    return {
      action: "signOut",
      toHost: workspaceHost(user.workspaceSlug, baseDomain, info.app),
      path: atRoot ? "/auth/login" : path,
      message: `Your account belongs to the ${user.workspaceSlug} workspace, not ${host}: sign in here to continue.`,
    };
  }
  if (info.app === "pos") {
    const allowedRole = user.roleId === 7 || user.roleId === 1;
    if (user.tierId !== TIER.Premium || !allowedRole) {
      return { action: "signOut", toHost: null, path: "/auth/login", message: MESSAGES.premiumOnly };
    }
  }
  if (info.app === "driver" || info.app === "warehouse") {
    if (user.tierId === TIER.Lite) {
      return { action: "signOut", toHost: null, path: "/auth/login", message: MESSAGES.liteNoAccess };
    }
  }
  return { action: "allow" };
}

// WHATWG URL is global in browsers and Node alike; the domain compiles without either's types, so name the part used.
type ParsedUrl = { origin: string; pathname: string; search: string; hash: string };
declare const URL: new (input: string, base: string) => ParsedUrl;

const SAME_ORIGIN = "http://same-origin.invalid";

// Issue 9 §3: a redirect target taken from input (returnTo, redirectedFrom, redirect_to) is only ever a path on
// this site: "/" then anything but another slash or backslash, which browsers would read as a host ("//evil",
// "/\evil"). The URL parser normalises first, as browsers do (dots, tabs, newlines), so "/.//evil" is caught too.
export function samePath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/")) return fallback;
  let url: ParsedUrl;
  try {
    url = new URL(value, SAME_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== SAME_ORIGIN || /^\/[/\\]/.test(url.pathname)) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

// The role apps a person may open from the back office (issue 22: "Open the driver app"): the host rules allow them
// there, and the app is their job's or they run the workspace (an admin or the owner). One rule for the menu's links
// and the hand-off's check.
const APP_ROLE: Record<Exclude<RoleApp, "main">, number> = { driver: 5, warehouse: 6, pos: 7 };
export function roleAppsFor(user: HostUser, baseDomain = "localhost"): Exclude<RoleApp, "main">[] {
  return (["driver", "warehouse", "pos"] as const).filter((app) => {
    const job = user.roleId === APP_ROLE[app] || user.roleId === 1 || user.isOwner;
    const host = workspaceHost(user.workspaceSlug, baseDomain, app);
    return job && decideHost({ host, path: "/dashboard", baseDomain, user }).action === "allow";
  });
}
