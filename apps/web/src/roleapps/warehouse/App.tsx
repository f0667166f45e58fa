import ChecklistOutlined from "@mui/icons-material/ChecklistOutlined";
import FactCheckOutlined from "@mui/icons-material/FactCheckOutlined";
import MoveDownOutlined from "@mui/icons-material/MoveDownOutlined";
import MoveToInboxOutlined from "@mui/icons-material/MoveToInboxOutlined";
import { Route, Routes } from "react-router";
import { RoleAppShell } from "../shell/RoleAppShell.tsx";
import { CountPage } from "./CountPage.tsx";
import { MovePage } from "./MovePage.tsx";
import { PickListPage } from "./PickListPage.tsx";
import { PickPage } from "./PickPage.tsx";
import { ReceiveOrderPage } from "./ReceiveOrderPage.tsx";
import { ReceivePage } from "./ReceivePage.tsx";

// The warehouse app on {slug}.warehouse.BASE (issue 22): receive purchase orders, pick, move stock between
// locations and count a location blind. Every change goes through the shell's outbox, so it works with the network
// gone and lands once.
export default function WarehouseApp() {
  return (
    <RoleAppShell
      app="warehouse"
      title="Warehouse"
      tabs={[
        { to: "", label: "Receive", icon: <MoveToInboxOutlined /> },
        { to: "pick", label: "Pick", icon: <ChecklistOutlined /> },
        { to: "move", label: "Move", icon: <MoveDownOutlined /> },
        { to: "count", label: "Count", icon: <FactCheckOutlined /> },
      ]}
    >
      <Routes>
        <Route index element={<ReceivePage />} />
        <Route path="receive/:id" element={<ReceiveOrderPage />} />
        <Route path="pick" element={<PickPage />} />
        <Route path="pick/:id" element={<PickListPage />} />
        <Route path="move" element={<MovePage />} />
        <Route path="count" element={<CountPage />} />
        <Route path="*" element={<ReceivePage />} />
      </Routes>
    </RoleAppShell>
  );
}
