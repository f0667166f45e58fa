import { useParams } from "react-router";

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
