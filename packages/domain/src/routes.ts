// Spec §2: public pages, auth routes and guest paths.
export const PUBLIC_PREFIXES = ["/demo", "/book-a-demo", "/privacy", "/pricing", "/outlook", "/instagram"] as const;

export const AUTH_ROUTES = {
  login: "/auth/login",
  reset: "/auth/reset",
  recover: "/auth/recover",
  success: "/auth/success",
  unauthorized: "/auth/unauthorized",
  projectRegistrations: "/auth/project-registrations",
  supplierDiscountForms: "/auth/supplier-discount-forms",
} as const;

export const REDIRECTS = {
  authFailure: AUTH_ROUTES.login,
  loginSuccess: "/dashboard",
  authorizationFailure: AUTH_ROUTES.unauthorized,
  authorizationSuccess: "/admin",
} as const;

const WORKSPACE_PREFIX = /^\/_workspaces\/[^/]+(?=\/|$)/;

// The /_workspaces/[workspace] prefix is removed before any path check.
export function stripWorkspacePrefix(path: string): string {
  const stripped = path.replace(WORKSPACE_PREFIX, "");
  return stripped === "" ? "/" : stripped;
}

export function workspaceFromPath(path: string): string | null {
  const m = /^\/_workspaces\/([^/]+)/.exec(path);
  return m ? decodeURIComponent(m[1]) : null;
}

export function isPublicPath(path: string): boolean {
  const p = stripWorkspacePrefix(path);
  return (
    p === "/" || PUBLIC_PREFIXES.some((prefix) => p === prefix || p.startsWith(`${prefix}/`) || p.startsWith(prefix))
  );
}

// The pages that need a session (spec §2: the dashboard's). Signed out, one of them is sent to sign in; any other
// address that is not a guest path is no page at all and shows the not-found page (issue 21 §1: it said "Sign in to
// continue", as if there were something behind it).
export function isProtectedPath(path: string): boolean {
  return /^\/dashboard(\/|$)/.test(stripWorkspacePrefix(path));
}

// Guest paths: the root, /auth/* and any configured extras (spec §2 "Shell behaviour").
export function isGuestPath(path: string, extras: readonly string[] = []): boolean {
  const p = stripWorkspacePrefix(path);
  if (p === "/" || p === "/auth" || p.startsWith("/auth/")) return true;
  if (isPublicPath(p)) return true;
  return extras.some((e) => p === e || p.startsWith(e.endsWith("/") ? e : `${e}/`));
}
