import { RequireAuth } from "../session/RequireAuth.tsx";
import { DashboardLayout } from "./DashboardLayout.tsx";

export default function DashboardRoot() {
  return (
    <RequireAuth>
      <DashboardLayout />
    </RequireAuth>
  );
}
