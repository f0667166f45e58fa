import UploadFileOutlined from "@mui/icons-material/UploadFileOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { CommandResult } from "@workmetrics/domain/commands";
import { useState } from "react";
import toast from "react-hot-toast";
import { parseCsv } from "../../platform/data-access/csv.ts";
import { DateField } from "../../platform/fields/DateField.tsx";
import { formatCents, formatDate } from "../../platform/fields/format.ts";
import { type BooksState, useBooksCommand, useChart } from "./api.ts";

// Issue 12 "Opening balances by CSV": a file of account_code,debit,credit (or account_code,balance: positive a
// debit, negative a credit), an as-of date and, when it does not balance, the equity account that takes the
// difference (3100 Retained Earnings: what the business kept before these books). The server previews it with an
// error per row, then posts one entry — once, unless that entry is reversed (in the Journal).

type Preview = CommandResult<"opening_balances">;

const COLUMNS = ["account_code", "debit", "credit", "balance"] as const;

// The file's rows as the server reads them, or what is wrong with its header.
export function readOpeningCsv(text: string): { rows: Record<string, string>[]; error: string | null } {
  const parsed = parseCsv(text);
  if (parsed.error) return { rows: [], error: parsed.error };
  const [head, ...body] = parsed.rows.filter((r) => r.some((c) => c.trim() !== ""));
  if (!head) return { rows: [], error: "The file is empty" };
  const names = head.map((h) => h.trim().toLowerCase());
  if (
    !names.includes("account_code") ||
    !(names.includes("balance") || names.includes("debit") || names.includes("credit"))
  ) {
    return { rows: [], error: "The first line names the columns: account_code,debit,credit or account_code,balance" };
  }
  const rows = body.map((r) =>
    Object.fromEntries(
      COLUMNS.flatMap((c) => {
        const i = names.indexOf(c);
        return i < 0 ? [] : [[c, r[i] ?? ""]];
      }),
    ),
  );
  return { rows, error: null };
}

export function OpeningBalances({ state, mayPost }: { state: BooksState; mayPost: boolean }) {
  const command = useBooksCommand("opening_balances");
  const chart = useChart();
  const [asOf, setAsOf] = useState("");
  const [file, setFile] = useState<{ name: string; rows: Record<string, string>[] } | null>(null);
  const [balancing, setBalancing] = useState("");
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const equity = (chart.data?.accounts ?? []).filter((a) => a.root === "equity" && a.active);

  const run = async (post: boolean) => {
    if (!file) return;
    setError(null);
    try {
      const res = await command.mutateAsync({
        as_of: asOf,
        rows: file.rows,
        balancing_account_code: balancing || null,
        post,
      });
      setPreview(res);
      if (post && res.entry) {
        toast.success(`Opening balances posted as ${res.entry.number}`);
        setFile(null);
        setPreview(null);
      }
    } catch (err) {
      setError(err instanceof Error ? err.message : "The opening balances could not be read");
    }
  };

  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          Opening balances
        </Typography>
        {state.opening_balance ? (
          <Typography data-testid="opening-posted">
            Opening balances were posted as {state.opening_balance.number} on{" "}
            {formatDate(state.opening_balance.entry_date)}. To post them again, reverse that entry in the Journal first.
          </Typography>
        ) : !mayPost ? (
          <Typography color="text.secondary">No opening balances yet; the accounts team posts them.</Typography>
        ) : (
          <Stack spacing={2}>
            <Typography color="text.secondary">
              Upload a CSV with the columns account_code,debit,credit (or account_code,balance) — the trial balance of
              the books you are leaving, as of the day before you start here.
            </Typography>
            <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
              <DateField
                size="small"
                fullWidth={false}
                label="As of"
                required
                value={asOf}
                onChange={(v) => {
                  setAsOf(v);
                  setPreview(null);
                }}
              />
              <Button component="label" variant="outlined" startIcon={<UploadFileOutlined />}>
                {file ? file.name : "Choose CSV file"}
                <input
                  hidden
                  type="file"
                  accept=".csv,text/csv"
                  aria-label="Opening balances CSV"
                  onChange={async (e) => {
                    const f = e.target.files?.[0];
                    e.target.value = "";
                    if (!f) return;
                    const read = readOpeningCsv(await f.text());
                    setPreview(null);
                    if (read.error) {
                      setFile(null);
                      setError(read.error);
                    } else {
                      setError(null);
                      setFile({ name: f.name, rows: read.rows });
                    }
                  }}
                />
              </Button>
              <TextField
                select
                size="small"
                label="Balancing account"
                value={balancing}
                onChange={(e) => {
                  setBalancing(e.target.value);
                  setPreview(null);
                }}
                slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
                sx={{ minWidth: 240 }}
              >
                <MenuItem value="">None: the file must balance</MenuItem>
                {equity.map((a) => (
                  <MenuItem key={a.code} value={a.code}>
                    {a.code} {a.name}
                  </MenuItem>
                ))}
              </TextField>
              <Button
                variant="outlined"
                disabled={!file || !asOf}
                loading={command.isPending}
                onClick={() => run(false)}
              >
                Preview
              </Button>
            </Stack>
            {error && <Alert severity="error">{error}</Alert>}
            {preview && (
              <Box>
                <Table size="small" aria-label="Opening balances preview">
                  <TableHead>
                    <TableRow>
                      <TableCell>Row</TableCell>
                      <TableCell>Account</TableCell>
                      <TableCell align="right">Debit</TableCell>
                      <TableCell align="right">Credit</TableCell>
                      <TableCell>Problem</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {preview.rows.map((r) => (
                      <TableRow
                        key={r.row}
                        sx={r.error ? { bgcolor: "action.hover", "& td": { color: "error.main" } } : undefined}
                      >
                        <TableCell>{r.row}</TableCell>
                        <TableCell>
                          {r.account_code} {r.account_name ?? ""}
                        </TableCell>
                        <TableCell align="right">{Number(r.debit) ? formatCents(r.debit) : ""}</TableCell>
                        <TableCell align="right">{Number(r.credit) ? formatCents(r.credit) : ""}</TableCell>
                        <TableCell>{r.error}</TableCell>
                      </TableRow>
                    ))}
                    {preview.balancing && (
                      <TableRow>
                        <TableCell />
                        <TableCell>{preview.balancing.account_code} (the difference)</TableCell>
                        <TableCell align="right">
                          {Number(preview.balancing.debit) ? formatCents(preview.balancing.debit) : ""}
                        </TableCell>
                        <TableCell align="right">
                          {Number(preview.balancing.credit) ? formatCents(preview.balancing.credit) : ""}
                        </TableCell>
                        <TableCell />
                      </TableRow>
                    )}
                    <TableRow>
                      <TableCell colSpan={2}>
                        <Typography sx={{ fontWeight: 600 }}>Totals of the file</Typography>
                      </TableCell>
                      <TableCell align="right">
                        <Typography sx={{ fontWeight: 600 }}>{formatCents(preview.totals.debit)}</Typography>
                      </TableCell>
                      <TableCell align="right">
                        <Typography sx={{ fontWeight: 600 }}>{formatCents(preview.totals.credit)}</Typography>
                      </TableCell>
                      <TableCell />
                    </TableRow>
                  </TableBody>
                </Table>
                {preview.problem ? (
                  <Alert severity="error" sx={{ mt: 2 }}>
                    {preview.problem}
                  </Alert>
                ) : (
                  <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: "center" }}>
                    <Alert severity="success" sx={{ flexGrow: 1 }}>
                      Ready: one entry dated {formatDate(asOf)} with {preview.rows.length + (preview.balancing ? 1 : 0)}{" "}
                      lines.
                    </Alert>
                    <Button variant="contained" loading={command.isPending} onClick={() => run(true)}>
                      Post opening balances
                    </Button>
                  </Stack>
                )}
              </Box>
            )}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
