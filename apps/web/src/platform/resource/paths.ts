import { useParams } from "react-router";
import { resourceByName } from "./definition.ts";

// Dashboard links keep the /_workspaces/{slug} prefix the page was reached with (DESIGN §3.3).
export function useDashboardBase(): string {
  const { workspace } = useParams();
  return workspace ? `/_workspaces/${workspace}/dashboard` : "/dashboard";
}

export type ResourcePaths = {
  list: string;
  create: string;
  show(id: string | number): string;
  edit(id: string | number): string;
};

export function resourcePaths(base: string, route: string): ResourcePaths {
  const list = `${base}/${route}`;
  return {
    list,
    create: `${list}/new`,
    show: (id) => `${list}/${encodeURIComponent(String(id))}`,
    edit: (id) => `${list}/${encodeURIComponent(String(id))}/edit`,
  };
}

// Paths of another resource's pages, or null when it has no generic page.
export function pathsOf(base: string, resource: string): ResourcePaths | null {
  const route = resourceByName(resource).route;
  return route ? resourcePaths(base, route) : null;
}
