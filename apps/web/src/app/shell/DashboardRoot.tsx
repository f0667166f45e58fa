import { DatePickersProvider } from "../../platform/fields/DatePickersProvider.tsx";
import { RequireAuth } from "../session/RequireAuth.tsx";
import { DashboardLayout } from "./DashboardLayout.tsx";

export default function DashboardRoot() {
  return (
    <RequireAuth>
      <DatePickersProvider>
        <DashboardLayout />
      </DatePickersProvider>
    </RequireAuth>
  );
}
