import { lazy, Suspense } from "react";
import { DatePickersProvider } from "../../platform/fields/DatePickersProvider.tsx";
import { FullScreenSpinner } from "../FullScreenSpinner.tsx";
import { RequireAuth } from "../session/RequireAuth.tsx";
import { DashboardLayout } from "./DashboardLayout.tsx";

const RoleAppStart = lazy(() => import("./RoleAppStart.tsx"));

// The back office on a workspace's main host; on a role app's host (pos, driver, warehouse) its start page.
export default function DashboardRoot() {
  return (
    <RequireAuth>
      {(app) =>
        app === "main" ? (
          <DatePickersProvider>
            <DashboardLayout />
          </DatePickersProvider>
        ) : (
          <Suspense fallback={<FullScreenSpinner />}>
            <RoleAppStart app={app} />
          </Suspense>
        )
      }
    </RequireAuth>
  );
}
