import AddIcon from "@mui/icons-material/Add";
import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import PhotoCameraOutlined from "@mui/icons-material/PhotoCameraOutlined";
import ReceiptLongOutlined from "@mui/icons-material/ReceiptLongOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { errorMessage } from "@workmetrics/domain";
import { dec, money, sum } from "@workmetrics/domain/documents/decimal";
import { TAX_CODES, type TaxCode } from "@workmetrics/domain/documents/totals";
import {
  EXPENSE_ACCOUNT_DEFAULT,
  EXPENSE_CLAIM_ACCOUNTS,
  gstInside,
} from "@workmetrics/domain/documents/types/expense-claim";
import { useRef, useState } from "react";
import toast from "react-hot-toast";
import { callCommand } from "../../platform/commands.ts";
import { formatCents } from "../../platform/fields/format.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { compressPhoto } from "../../roleapps/driver/proof.ts";
import { emptyLine, isBlank, type LineDraft } from "../documents/lines.ts";
import type { LinesEditorProps } from "../documents/types.ts";

// An expense claim's receipts on the document page (WebDocType.editor), one card per receipt so it reads on a phone
// (390 px): the receipt photographed with the phone's camera (compressed on the phone as the driver app's proof,
// kept by expense_receipt_upload), the merchant, the date on it, the amount paid with GST, the tax code and the
// expense account. The GST and net are gstInside's — the function the server prices with — so what the person sees
// is what is saved.

const text = (v: unknown) => (v === null || v === undefined ? "" : String(v));
const TAX_LABELS: Record<TaxCode, string> = {
  SR: "SR — GST 9%",
  ZR: "ZR — zero-rated",
  ES: "ES — exempt",
  OS: "OS — no GST",
};
const today = () => new Date().toLocaleDateString("en-CA");

export const newExpenseLine = (): LineDraft => ({
  ...emptyLine(),
  extra: { merchant: "", expense_date: today(), amount: "", account_code: EXPENSE_ACCOUNT_DEFAULT, receipt_path: null },
});

const validAmount = (v: string) => /^\d+(\.\d{1,2})?$/.test(v.trim());

function figures(lines: readonly LineDraft[]) {
  const counted = lines.filter((l) => validAmount(text(l.extra.amount)));
  const gst = counted.map((l) => gstInside(text(l.extra.amount), l.tax_code));
  const total = money(sum(counted.map((l) => text(l.extra.amount))));
  const tax = money(sum(gst));
  return { total, tax, net: money(dec(total).minus(tax)) };
}

type ReceiptProps = { line: LineDraft; lineId: number | null; onPath(path: string | null): void; readOnly: boolean };

function Receipt({ line, lineId, onPath, readOnly }: ReceiptProps) {
  const { client } = useViewer();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const path = text(line.extra.receipt_path);
  const take = async (file: File | undefined) => {
    if (!file || !client) return;
    setBusy(true);
    try {
      const image = await compressPhoto(file);
      const kept = await callCommand(client, "expense_receipt_upload", { image });
      setPreview(image);
      onPath(kept.path);
      toast.success("Receipt kept");
    } catch (err) {
      toast.error(errorMessage(err, "The receipt could not be kept"));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  };
  const show = async () => {
    if (preview) return setOpen(preview);
    if (!client || lineId == null) return;
    try {
      setOpen((await callCommand(client, "expense_receipt_read", { line_id: lineId })).data_url);
    } catch (err) {
      toast.error(errorMessage(err, "The receipt could not be opened"));
    }
  };
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap" }}>
      {!readOnly && (
        <>
          <input
            ref={input}
            type="file"
            accept="image/*"
            capture="environment"
            hidden
            aria-label="Receipt photo"
            onChange={(e) => void take(e.target.files?.[0])}
          />
          <Button
            size="small"
            variant={path ? "text" : "outlined"}
            startIcon={busy ? <CircularProgress size={16} /> : <PhotoCameraOutlined />}
            disabled={busy}
            onClick={() => input.current?.click()}
          >
            {path ? "Retake receipt" : "Photograph receipt"}
          </Button>
        </>
      )}
      {preview && (
        <Box
          component="img"
          src={preview}
          alt="Receipt"
          onClick={() => setOpen(preview)}
          sx={{
            height: 48,
            width: 48,
            objectFit: "cover",
            borderRadius: 1,
            cursor: "pointer",
            border: 1,
            borderColor: "divider",
          }}
        />
      )}
      {path &&
        !preview &&
        (lineId != null ? (
          <Button size="small" startIcon={<ReceiptLongOutlined />} onClick={() => void show()}>
            View receipt
          </Button>
        ) : null)}
      {!path && readOnly && (
        <Typography variant="caption" color="text.secondary">
          No receipt
        </Typography>
      )}
      <Dialog open={open !== null} onClose={() => setOpen(null)} maxWidth="md">
        <DialogContent sx={{ p: 1 }}>
          {open && <Box component="img" src={open} alt="Receipt" sx={{ maxWidth: "100%", display: "block" }} />}
        </DialogContent>
      </Dialog>
    </Stack>
  );
}

export default function ExpenseLines({ doc, lines, onChange, readOnly, currency, errors }: LinesEditorProps) {
  const shown = readOnly ? lines.filter((l) => !isBlank(l)) : lines;
  const set = (index: number, patch: Partial<LineDraft>, extra: Record<string, unknown> = {}) =>
    onChange(
      shown.map((l, i) => {
        if (i !== index) return l;
        const next = { ...l, ...patch, extra: { ...l.extra, ...extra } };
        next.extra.account_code ||= EXPENSE_ACCOUNT_DEFAULT;
        next.extra.expense_date ||= today();
        // The engine's columns follow the receipt (so the line is not blank): description the merchant, price the amount.
        return { ...next, description: text(next.extra.merchant), unit_price: text(next.extra.amount), qty: "1" };
      }),
    );
  const f = figures(shown);
  // A saved line's id (for opening its receipt): the saved line with the same receipt.
  const saved = (doc?.lines as Array<Record<string, unknown>> | undefined) ?? [];
  const idOf = (l: LineDraft) => {
    const path = text(l.extra.receipt_path);
    const row = path ? saved.find((r) => text(r.receipt_path) === path) : undefined;
    return row ? Number(row.id) : null;
  };
  const err = (i: number, field: string) => errors?.[`lines.${i}.${field}`];
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ mb: 1 }}>
          Receipts
        </Typography>
        {shown.length === 0 && (
          <Alert severity="info" sx={{ mb: 1 }}>
            Add a receipt for each expense: photograph it, then check the merchant, date and amount.
          </Alert>
        )}
        <Stack spacing={1.5}>
          {shown.map((l, i) => (
            <Box
              key={l.key}
              data-testid={`expense-line-${i + 1}`}
              sx={{ border: 1, borderColor: "divider", borderRadius: 1, p: 1.5 }}
            >
              <Stack direction="row" sx={{ justifyContent: "space-between", alignItems: "center", mb: 1 }}>
                <Typography variant="body2" color="text.secondary">
                  Receipt {i + 1}
                </Typography>
                {!readOnly && (
                  <IconButton
                    size="small"
                    aria-label={`Remove receipt ${i + 1}`}
                    onClick={() => onChange(shown.filter((_, j) => j !== i))}
                  >
                    <DeleteOutlined fontSize="small" />
                  </IconButton>
                )}
              </Stack>
              <Box
                sx={{
                  display: "grid",
                  gap: 1.5,
                  gridTemplateColumns: { xs: "1fr", sm: "2fr 1fr 1fr", md: "3fr 1.3fr 1.2fr 1.5fr 1.8fr" },
                }}
              >
                <TextField
                  label="Merchant"
                  size="small"
                  value={text(l.extra.merchant)}
                  onChange={(e) => set(i, {}, { merchant: e.target.value })}
                  slotProps={{ input: { readOnly } }}
                  error={Boolean(err(i, "merchant"))}
                  helperText={err(i, "merchant")}
                />
                <TextField
                  label="Date on receipt"
                  type="date"
                  size="small"
                  value={text(l.extra.expense_date)}
                  onChange={(e) => set(i, {}, { expense_date: e.target.value })}
                  slotProps={{ input: { readOnly }, inputLabel: { shrink: true }, htmlInput: { max: today() } }}
                  error={Boolean(err(i, "expense_date"))}
                  helperText={err(i, "expense_date")}
                />
                <TextField
                  label={`Amount paid (${currency})`}
                  size="small"
                  value={text(l.extra.amount)}
                  onChange={(e) => set(i, {}, { amount: e.target.value })}
                  slotProps={{ input: { readOnly }, htmlInput: { inputMode: "decimal" } }}
                  error={
                    Boolean(err(i, "amount")) || (text(l.extra.amount) !== "" && !validAmount(text(l.extra.amount)))
                  }
                  helperText={
                    err(i, "amount") ??
                    (validAmount(text(l.extra.amount))
                      ? `GST ${formatCents(gstInside(text(l.extra.amount), l.tax_code))}`
                      : text(l.extra.amount)
                        ? "An amount like 12.50"
                        : "GST included")
                  }
                />
                <TextField
                  select
                  label="Tax code"
                  size="small"
                  value={l.tax_code}
                  onChange={(e) => set(i, { tax_code: e.target.value as TaxCode })}
                  disabled={readOnly}
                >
                  {TAX_CODES.map((c) => (
                    <MenuItem key={c} value={c}>
                      {TAX_LABELS[c]}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  select
                  label="Expense account"
                  size="small"
                  value={text(l.extra.account_code) || EXPENSE_ACCOUNT_DEFAULT}
                  onChange={(e) => set(i, {}, { account_code: e.target.value })}
                  disabled={readOnly}
                  error={Boolean(err(i, "account_code"))}
                  helperText={err(i, "account_code")}
                >
                  {[
                    ...EXPENSE_CLAIM_ACCOUNTS,
                    ...(EXPENSE_CLAIM_ACCOUNTS.some((a) => a.code === text(l.extra.account_code)) ||
                    !text(l.extra.account_code)
                      ? []
                      : [{ code: text(l.extra.account_code), name: "" }]),
                  ].map((a) => (
                    <MenuItem key={a.code} value={a.code}>
                      {a.code} {a.name}
                    </MenuItem>
                  ))}
                </TextField>
              </Box>
              <Box sx={{ mt: 1 }}>
                <Receipt
                  line={l}
                  lineId={idOf(l)}
                  readOnly={readOnly}
                  onPath={(p) => set(i, {}, { receipt_path: p })}
                />
                {err(i, "receipt_path") && (
                  <Typography variant="caption" color="error">
                    {err(i, "receipt_path")}
                  </Typography>
                )}
              </Box>
            </Box>
          ))}
        </Stack>
        {!readOnly && (
          <Button startIcon={<AddIcon />} sx={{ mt: 1 }} onClick={() => onChange([...shown, newExpenseLine()])}>
            Add receipt
          </Button>
        )}
        <Box sx={{ mt: 2, ml: "auto", maxWidth: 320 }} data-testid="expense-totals">
          <Stack direction="row" sx={{ justifyContent: "space-between" }}>
            <Typography variant="body2" color="text.secondary">
              Net
            </Typography>
            <Typography variant="body2">{formatCents(f.net)}</Typography>
          </Stack>
          <Stack direction="row" sx={{ justifyContent: "space-between" }}>
            <Typography variant="body2" color="text.secondary">
              GST input
            </Typography>
            <Typography variant="body2">{formatCents(f.tax)}</Typography>
          </Stack>
          <Stack direction="row" sx={{ justifyContent: "space-between" }}>
            <Typography variant="subtitle1">To reimburse</Typography>
            <Typography variant="subtitle1" sx={{ fontWeight: 600 }} data-testid="expense-total">
              {currency} {formatCents(f.total)}
            </Typography>
          </Stack>
        </Box>
      </CardContent>
    </Card>
  );
}
