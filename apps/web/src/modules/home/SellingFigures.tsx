import type { SvgIconComponent } from "@mui/icons-material";
import AccountBalanceOutlined from "@mui/icons-material/AccountBalanceOutlined";
import AssignmentLateOutlined from "@mui/icons-material/AssignmentLateOutlined";
import EventBusyOutlined from "@mui/icons-material/EventBusyOutlined";
import LocalShippingOutlined from "@mui/icons-material/LocalShippingOutlined";
import MoveToInboxOutlined from "@mui/icons-material/MoveToInboxOutlined";
import OutboxOutlined from "@mui/icons-material/OutboxOutlined";
import PaymentsOutlined from "@mui/icons-material/PaymentsOutlined";
import ReceiptLongOutlined from "@mui/icons-material/ReceiptLongOutlined";
import RequestQuoteOutlined from "@mui/icons-material/RequestQuoteOutlined";
import SavingsOutlined from "@mui/icons-material/SavingsOutlined";
import SwapHorizOutlined from "@mui/icons-material/SwapHorizOutlined";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardActionArea from "@mui/material/CardActionArea";
import Typography from "@mui/material/Typography";
import { formatMoney } from "@workmetrics/domain/money";
import { Link as RouterLink } from "react-router";
import { useViewer } from "../../platform/session/viewer.tsx";
import type { Figure, SellingFigures as Figures } from "./useDashboardSummary.ts";

// Issue 10 §3 "real selling figures": invoiced this month, overdue receivables, orders to deliver and quotations
// awaiting an answer, each linking to its list filtered the same way (the overdue figure to Accounts receivable). The server sends only the figures the member
// may read (the one access rule), so a card is shown exactly when its figure came.

type FigureCard = {
  key: keyof Figures;
  title: string;
  icon: SvgIconComponent;
  to(monthStart: string): string;
  detail(f: Figure): string;
  money: boolean;
  alert?: (f: Figure) => boolean; // drawn in red when true
};

const plural = (n: number, one: string) => `${n.toLocaleString()} ${one}${n === 1 ? "" : "s"}`;

const CARDS: FigureCard[] = [
  {
    key: "sales_this_month",
    title: "Net sales this month",
    icon: ReceiptLongOutlined,
    to: (m) => `invoices?from=${m}`,
    // One definition of net sales everywhere (issue 21 §1), said where it is shown.
    detail: (f) => `${plural(f.count, "invoice")} · excl. GST, after credit and debit notes`,
    money: true,
  },
  {
    key: "overdue_receivables",
    title: "Overdue receivables",
    icon: AssignmentLateOutlined,
    to: () => "accounts-receivable", // who owes what, by age: the figure is that page's past-due total
    detail: (f) => `${plural(f.count, "invoice")} past due`,
    money: true,
    alert: (f) => f.count > 0,
  },
  {
    key: "orders_to_deliver",
    title: "Orders to deliver",
    icon: LocalShippingOutlined,
    to: () => "sales-orders?status=to_deliver_and_bill,to_deliver",
    detail: () => "Sales orders",
    money: false,
  },
  {
    key: "open_quotations",
    title: "Open quotations",
    icon: RequestQuoteOutlined,
    to: () => "quotations?status=sent",
    detail: () => "Sent, awaiting an answer",
    money: false,
  },
  // Issue 21 §1 "Homes by role" (work-figures.ts on the server): each role's work, where its figure came.
  {
    key: "quotations_expiring",
    title: "Quotations expiring this week",
    icon: EventBusyOutlined,
    to: () => "quotations?status=sent",
    detail: () => "Sent, valid for 7 days or less",
    money: false,
    alert: (f) => f.count > 0,
  },
  {
    key: "deliveries_to_ship",
    title: "Deliveries to ship",
    icon: OutboxOutlined,
    to: () => "delivery-orders?status=draft",
    detail: () => "Delivery orders prepared, not yet sent",
    money: false,
  },
  {
    key: "receipts_due",
    title: "Receipts due",
    icon: MoveToInboxOutlined,
    to: () => "purchase-orders?status=to_receive_and_bill,to_receive",
    detail: (f) => (f.late ? `${f.late} late · purchase orders` : "Purchase orders expected within 7 days"),
    money: false,
    alert: (f) => Boolean(f.late),
  },
  {
    key: "transfers_in_transit",
    title: "Transfers on the road",
    icon: SwapHorizOutlined,
    to: () => "goods-transfer-forms?status=in_transit",
    detail: () => "Dispatched, not yet received",
    money: false,
  },
  {
    key: "receivables_due_week",
    title: "Due in this week",
    icon: PaymentsOutlined,
    to: () => "accounts-receivable",
    detail: (f) => `${plural(f.count, "invoice")} falling due in 7 days`,
    money: true,
  },
  {
    key: "payables_due_week",
    title: "Bills to pay this week",
    icon: AccountBalanceOutlined,
    to: () => "accounts-payable",
    detail: (f) => `${plural(f.count, "supplier invoice")}${f.late ? `, ${f.late} overdue` : ""}`,
    money: true,
    alert: (f) => Boolean(f.late),
  },
  {
    key: "cash_at_hand",
    title: "Cash and bank",
    icon: SavingsOutlined,
    to: () => "reports/balance_sheet",
    detail: (f) => `Balance of ${plural(f.count, "cash and bank account")}`,
    money: true,
  },
];

export function SellingFigures({ figures, base }: { figures: Figures | undefined; base: string }) {
  const { currency } = useViewer();
  const shown = CARDS.filter((c) => figures?.[c.key]);
  if (!shown.length) return null;
  const now = new Date();
  const monthStart = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-01`;
  return (
    <Box
      component="ul"
      aria-label="Your figures"
      sx={{
        listStyle: "none",
        p: 0,
        m: 0,
        display: "grid",
        gap: 2,
        gridTemplateColumns: { xs: "1fr", sm: "repeat(2, 1fr)", lg: "repeat(4, 1fr)" },
      }}
    >
      {shown.map((c) => {
        const f = figures?.[c.key] as Figure;
        const Icon = c.icon;
        const value = c.money ? formatMoney(f.amount ?? "0", currency) : f.count.toLocaleString();
        const warn = Boolean(c.alert?.(f));
        return (
          <li key={c.key}>
            <Card variant="outlined" sx={{ height: "100%", borderColor: warn ? "error.main" : undefined }}>
              <CardActionArea component={RouterLink} to={`${base}/${c.to(monthStart)}`} sx={{ p: 2, height: "100%" }}>
                <Icon color={warn ? "error" : "primary"} fontSize="small" />
                <Typography variant="body2" color="text.secondary">
                  {c.title}
                </Typography>
                <Typography variant="h5" component="p" sx={{ fontWeight: 600 }} data-testid={`figure-${c.key}`}>
                  {value}
                </Typography>
                <Typography variant="caption" color={warn ? "error" : "text.secondary"}>
                  {c.detail(f)}
                </Typography>
              </CardActionArea>
            </Card>
          </li>
        );
      })}
    </Box>
  );
}
