import type { Member } from "@workmetrics/domain";
import { type AppModule, MODULES, type NavSection } from "../modules.ts";

// What the navigation offers (issue 9): the modules the access rule allows, and those only a higher tier would
// allow, locked with the plan that has them. Anything refused for another reason is not shown. The sidebar and the
// command palette both read it, so they never disagree on what a person may open.
export type Offered = { m: AppModule; lock: string | null };

export function offered(who: Member): Offered[] {
  return MODULES.filter((m) => !m.hidden).flatMap((m): Offered[] => {
    const d = m.access(who);
    if (d.allowed) return [{ m, lock: null }];
    return d.reason === "tier" ? [{ m, lock: `Needs the ${d.tierTitle} plan` }] : [];
  });
}

// The module a dashboard address belongs to: the longest module path the address starts with ("" is the home).
export function moduleAt(pathname: string, base: string): AppModule | undefined {
  if (pathname !== base && !pathname.startsWith(`${base}/`)) return undefined;
  const rest = pathname.slice(base.length).replace(/^\/+|\/+$/g, "");
  let best: AppModule | undefined;
  for (const m of MODULES) {
    if (m.path === "" ? rest === "" : rest === m.path || rest.startsWith(`${m.path}/`)) {
      if (!best || m.path.length > best.path.length) best = m;
    }
  }
  return best;
}

// A person's own key for what the shell keeps in localStorage (folded groups, recent documents): per workspace
// and user, so two people on one computer, or one person in two workspaces, keep their own.
export const storageKey = (what: string, workspace: string | undefined, user: string | undefined): string =>
  `workmetrics:${what}:${workspace ?? "platform"}:${user ?? "anon"}`;

function readJson<T>(key: string, fallback: T): T {
  try {
    const text = globalThis.localStorage?.getItem(key);
    return text ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
}

function writeJson(key: string, value: unknown): void {
  try {
    globalThis.localStorage?.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or refused (private mode): the state lasts as long as the page.
  }
}

// The sidebar's folded groups.
export const readFolded = (key: string): NavSection[] => {
  const v = readJson<unknown>(key, []);
  return Array.isArray(v) ? (v.filter((s) => typeof s === "string") as NavSection[]) : [];
};
export const writeFolded = (key: string, folded: readonly NavSection[]): void => writeJson(key, folded);

// Recent record pages (a document, a company): the newest first, each address once, at most RECENT_MAX.
export type RecentEntry = { path: string; resource: string; id: string; at: number };
export const RECENT_MAX = 10;

export function pushRecent(list: readonly RecentEntry[], entry: RecentEntry, max = RECENT_MAX): RecentEntry[] {
  return [entry, ...list.filter((e) => !(e.resource === entry.resource && e.id === entry.id))].slice(0, max);
}

export const readRecent = (key: string): RecentEntry[] => {
  const v = readJson<unknown>(key, []);
  if (!Array.isArray(v)) return [];
  return v.filter(
    (e): e is RecentEntry =>
      typeof e === "object" && e !== null && typeof e.path === "string" && typeof e.resource === "string",
  );
};
export const writeRecent = (key: string, list: readonly RecentEntry[]): void => writeJson(key, list);

// The record an address opens, if it is one: a resource module's `<path>/<id>` (not `new`, not `<id>/edit`).
export function recordAt(pathname: string, base: string): Omit<RecentEntry, "at"> | null {
  const m = moduleAt(pathname, base);
  if (!m?.resource || !m.path) return null;
  const rest = pathname.slice(base.length).replace(/^\/+|\/+$/g, "");
  const id = rest.slice(m.path.length + 1);
  if (!/^\d+$/.test(id)) return null;
  return { path: `${m.path}/${id}`, resource: m.resource.name, id };
}
