// The bottom tabs' addresses (pure, for tests).

// A tab's address: absolute as given, else under /dashboard/ (the apps' relative routes).
export function tabPath(to: string): string {
  if (to.startsWith("/")) return to.replace(/\/$/, "") || "/";
  return to ? `/dashboard/${to.replace(/^\.\//, "")}`.replace(/\/$/, "") : "/dashboard";
}

// The tab the address belongs to: the longest tab path it is at or under.
export function activeTab(pathname: string, tabs: { to: string }[]): number {
  let best = -1;
  let bestLen = -1;
  tabs.forEach((t, i) => {
    const p = tabPath(t.to);
    if ((pathname === p || pathname.startsWith(`${p}/`)) && p.length > bestLen) {
      best = i;
      bestLen = p.length;
    }
  });
  return best;
}
