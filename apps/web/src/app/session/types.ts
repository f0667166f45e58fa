import type { User } from "@supabase/supabase-js";

// The workspace user behind an auth user (spec §3 "User"): role, workspace, tier and features.
export type Profile = {
  id: string;
  slug: string;
  name: string;
  email: string;
  active: boolean;
  role_id: number;
  workspace_id: string;
  currency_factor: { id: number } | null;
  role: { id: number; title: string; slug: string; permissions: string[] }; // the effective set the server checks
  workspace: {
    id: string;
    slug: string;
    name: string;
    tier_id: number;
    user_id: string | null;
    primary_color: string | null;
    secondary_color: string | null;
    base_currency: string;
    logo: string | null;
    suspended_at: string | null;
    sandbox_expires_at?: string | null; // a sandbox (GET /demo) and when it is removed
    tier: { id: number; slug: string; title: string; features: string[] };
    features: string[];
  };
};

// What GET /api/auth/user returns.
export type DbUser = { user: User; profile: Profile | null; is_platform_operator: boolean; aal: string };
