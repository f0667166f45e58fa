import PointOfSaleOutlined from "@mui/icons-material/PointOfSaleOutlined";
import ReceiptLongOutlined from "@mui/icons-material/ReceiptLongOutlined";
import SavingsOutlined from "@mui/icons-material/SavingsOutlined";
import { Route, Routes } from "react-router";
import { RoleAppShell } from "../shell/RoleAppShell.tsx";
import { OrderPage } from "./OrderPage.tsx";
import { OrdersPage } from "./OrdersPage.tsx";
import { ReceiptPage } from "./ReceiptPage.tsx";
import { SellPage } from "./SellPage.tsx";
import { SessionPage } from "./SessionPage.tsx";

// The point of sale on {slug}.pos.BASE (issue 22, Premium, POS staff and admins): open a session at a counter with
// a float, ring up sales (favourites, scan or search, quantities, line discounts, a customer or walk-in) paid by
// cash, card, PayNow or voucher or split across them, print or e-mail the receipt with its QR code, refund a sale or
// some of its lines, and close the session with the counted cash and its Z report. Every change goes through the
// shell's outbox, so the counter keeps selling with the network gone and each sale lands once.
export default function PosApp() {
  return (
    <RoleAppShell
      app="pos"
      title="Point of sale"
      tabs={[
        { to: "", label: "Sell", icon: <PointOfSaleOutlined /> },
        { to: "orders", label: "Orders", icon: <ReceiptLongOutlined /> },
        { to: "session", label: "Session", icon: <SavingsOutlined /> },
      ]}
    >
      <Routes>
        <Route index element={<SellPage />} />
        <Route path="receipt/:key" element={<ReceiptPage />} />
        <Route path="orders" element={<OrdersPage />} />
        <Route path="orders/:id" element={<OrderPage />} />
        <Route path="session" element={<SessionPage />} />
        <Route path="*" element={<SellPage />} />
      </Routes>
    </RoleAppShell>
  );
}
