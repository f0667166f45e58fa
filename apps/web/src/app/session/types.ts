// What GET /api/auth/user returns: the auth user and the workspace user behind it (spec §3 "User").
export type DbUser = {
  id: string;
  email: string | null;
  phone: string | null;
  slug: string | null;
  name: string | null;
  role_id: number | null;
  workspace_id: string | null;
  is_platform_operator: boolean;
  role: { id: number; title: string; slug: string; permissions: string[] } | null;
  currency_factor: { id: number } | null;
  workspace: {
    id: string;
    slug: string;
    name: string;
    tier_id: number;
    primary_color: string | null;
    secondary_color: string | null;
    tier: { id: number; slug: string; title: string; features: string[] };
  } | null;
};
