import { Outlet } from "react-router";
import { SessionProvider } from "./SessionProvider.tsx";

// Loaded only for /auth and /dashboard, so public pages never download supabase-js (spec §2: no user loading).
export default function SessionRoot() {
  return (
    <SessionProvider>
      <Outlet />
    </SessionProvider>
  );
}
