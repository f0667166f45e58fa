import { lazy, Suspense } from "react";
import { DatePickersProvider } from "../../platform/fields/DatePickersProvider.tsx";
import { FullScreenSpinner } from "../FullScreenSpinner.tsx";
import { RequireAuth } from "../session/RequireAuth.tsx";
import { DashboardLayout } from "./DashboardLayout.tsx";

// Each role app is its own lazily loaded root (issue 22): apps/web/src/roleapps/{driver,warehouse,pos}/App.tsx.
const ROLE_APPS = {
  driver: lazy(() => import("../../roleapps/driver/App.tsx")),
  warehouse: lazy(() => import("../../roleapps/warehouse/App.tsx")),
  pos: lazy(() => import("../../roleapps/pos/App.tsx")),
};

function RoleApp({ app }: { app: keyof typeof ROLE_APPS }) {
  const App = ROLE_APPS[app];
  return <App />;
}

// The back office on a workspace's main host; on a role app's host (pos, driver, warehouse) that app.
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
            <RoleApp app={app} />
          </Suspense>
        )
      }
    </RequireAuth>
  );
}
