import CheckCircleOutlined from "@mui/icons-material/CheckCircleOutlined";
import LocalShippingOutlined from "@mui/icons-material/LocalShippingOutlined";
import { Route, Routes } from "react-router";
import { RoleAppShell } from "../shell/RoleAppShell.tsx";
import { DeliverPage } from "./DeliverPage.tsx";
import { FailPage } from "./FailPage.tsx";
import { StopPage } from "./StopPage.tsx";
import { TripPage } from "./TripPage.tsx";

// The driver app on {slug}.driver.BASE (issue 22): the day's stops in the driver's order, and at each stop
// Arrived → Delivered (name, signature, photos, GPS) or Failed (a reason). Every change goes through the shell's
// outbox, so it works with the network gone and lands once.
export default function DriverApp() {
  return (
    <RoleAppShell
      app="driver"
      title="Deliveries"
      tabs={[
        { to: "", label: "Stops", icon: <LocalShippingOutlined /> },
        { to: "done", label: "Done", icon: <CheckCircleOutlined /> },
      ]}
    >
      <Routes>
        <Route index element={<TripPage show="open" />} />
        <Route path="done" element={<TripPage show="done" />} />
        <Route path="stops/:id" element={<StopPage />} />
        <Route path="stops/:id/deliver" element={<DeliverPage />} />
        <Route path="stops/:id/fail" element={<FailPage />} />
        <Route path="*" element={<TripPage show="open" />} />
      </Routes>
    </RoleAppShell>
  );
}
