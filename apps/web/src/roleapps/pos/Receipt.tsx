import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import GlobalStyles from "@mui/material/GlobalStyles";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { dec } from "@workmetrics/domain/documents/decimal";
import type { ReactNode } from "react";
import { sgd } from "./data.ts";
import { methodLabel } from "./PayDialog.tsx";

// A receipt as the counter prints it (issue 22): an 80 mm roll when printed (only the receipt prints), the prices
// with GST included and the GST they include stated, the payments and the change, and the e-receipt's QR code.

export type ReceiptLine = {
  description: string;
  qty: string;
  unit_price: string;
  discount_percent: string;
  line_total: string;
};
export type ReceiptData = {
  title: string; // "Receipt POS-2026-00012", or "Receipt (waiting to send)"
  shop: string | null;
  counter: string | null;
  at: string;
  customer: string | null;
  lines: ReceiptLine[];
  discount: string | null;
  total: string;
  gst: string;
  payments: Array<{ method: string; amount: string }>;
  change: string;
  token: string | null;
  note?: ReactNode;
};

export function PrintStyles() {
  return (
    <GlobalStyles
      styles={{
        "@media print": {
          "@page": { size: "80mm auto", margin: "3mm" },
          "body *": { visibility: "hidden" },
          "#pos-print, #pos-print *": { visibility: "visible" },
          "#pos-print": { position: "absolute", left: 0, top: 0, width: "74mm", color: "#000", background: "#fff" },
        },
      }}
    />
  );
}

const Row = ({ left, right, strong }: { left: ReactNode; right: ReactNode; strong?: boolean }) => (
  <Stack direction="row" spacing={1} sx={{ justifyContent: "space-between" }}>
    <Typography variant={strong ? "subtitle1" : "body2"} sx={{ fontWeight: strong ? 700 : 400 }}>
      {left}
    </Typography>
    <Typography variant={strong ? "subtitle1" : "body2"} sx={{ fontWeight: strong ? 700 : 400, whiteSpace: "nowrap" }}>
      {right}
    </Typography>
  </Stack>
);

export function Receipt({ r }: { r: ReceiptData }) {
  return (
    <Box
      id="pos-print"
      sx={{
        fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace",
        maxWidth: 360,
        mx: "auto",
        p: 2,
        bgcolor: "background.paper",
        borderRadius: 2,
        border: 1,
        borderColor: "divider",
      }}
    >
      <Stack spacing={0.5} sx={{ textAlign: "center", mb: 1 }}>
        {r.shop && (
          <Typography variant="h6" sx={{ fontWeight: 700 }}>
            {r.shop}
          </Typography>
        )}
        {r.counter && <Typography variant="body2">{r.counter}</Typography>}
        <Typography variant="body2" sx={{ fontWeight: 700 }}>
          {r.title}
        </Typography>
        <Typography variant="body2">{new Date(r.at).toLocaleString()}</Typography>
        {r.customer && <Typography variant="body2">Customer: {r.customer}</Typography>}
      </Stack>
      <Divider sx={{ borderStyle: "dashed", my: 1 }} />
      <Stack spacing={0.75}>
        {r.lines.map((l, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a printed receipt's lines never reorder
          <Box key={i}>
            <Typography variant="body2">{l.description}</Typography>
            <Row
              left={`  ${l.qty} × ${sgd(l.unit_price)}${dec(l.discount_percent || "0").isZero() ? "" : ` −${l.discount_percent}%`}`}
              right={sgd(l.line_total)}
            />
          </Box>
        ))}
      </Stack>
      <Divider sx={{ borderStyle: "dashed", my: 1 }} />
      <Stack spacing={0.5}>
        {r.discount && !dec(r.discount).isZero() && <Row left="Discounts" right={sgd(r.discount)} />}
        <Row left="Total (incl. GST)" right={sgd(r.total)} strong />
        <Row left="GST 9% included" right={sgd(r.gst)} />
        {r.payments.map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a printed receipt's payments never reorder
          <Row key={i} left={methodLabel(p.method)} right={sgd(p.amount)} />
        ))}
        {!dec(r.change || "0").isZero() && <Row left="Change" right={sgd(r.change)} />}
      </Stack>
      {r.token ? (
        <Box sx={{ textAlign: "center", mt: 2 }}>
          <Box
            component="img"
            src={`/r/${r.token}/qr.svg`}
            alt="QR code of the e-receipt"
            sx={{ width: 120, height: 120, bgcolor: "#fff", p: 0.5 }}
          />
          <Typography variant="caption" sx={{ display: "block" }}>
            Scan for your e-receipt
          </Typography>
        </Box>
      ) : null}
      {r.note}
      <Typography variant="caption" sx={{ display: "block", textAlign: "center", mt: 1 }}>
        Prices include GST. Thank you!
      </Typography>
    </Box>
  );
}
