import AddOutlined from "@mui/icons-material/AddOutlined";
import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import Alert from "@mui/material/Alert";
import Autocomplete from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableFooter from "@mui/material/TableFooter";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useMemo, useState } from "react";
import { DateField } from "../../platform/fields/DateField.tsx";
import { formatCents } from "../../platform/fields/format.ts";
import type { AccountRow } from "./api.ts";
import { blankLine, checkForm, type DraftLine, toSend } from "./lines.ts";

// "New journal": the date, what it is for, and the lines — an account picked by code or name, a debit or a credit,
// a memo — with running totals and how far out of balance the entry is, checked by the domain's rule as the clerk
// types (the one journal_post runs): Post waits, saying why, until the entry would be taken. Tab moves through the
// cells; Enter in the last line's credit adds a line and moves to its account. The server has the last word (its
// refusal — the lock date, an inactive account — shows above the buttons).

const today = () => new Date().toISOString().slice(0, 10);

export function NewJournalDialog(props: {
  accounts: readonly AccountRow[];
  onClose(): void;
  onPost(args: { date: string; memo: string; lines: ReturnType<typeof toSend> }): Promise<void>;
}) {
  const [date, setDate] = useState(today);
  const [memo, setMemo] = useState("");
  const [lines, setLines] = useState<DraftLine[]>(() => [blankLine(), blankLine()]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const active = useMemo(() => props.accounts.filter((a) => a.active), [props.accounts]);
  const byCode = useMemo(() => new Map(props.accounts.map((a) => [a.code, a])), [props.accounts]);
  // The row whose account takes the focus when it appears (a line added from the keyboard or the button).
  const [focusKey, setFocusKey] = useState<number | null>(null);
  const check = checkForm({ date, memo, lines });
  const addLine = () => {
    const l = blankLine();
    setLines((ls) => [...ls, l]);
    setFocusKey(l.key);
  };
  const cellError = (i: number, field: string) => check.byField.has(`lines.${i}.${field}`);

  const change = (key: number, patch: Partial<DraftLine>) => {
    setLines((ls) => ls.map((l) => (l.key === key ? { ...l, ...patch } : l)));
    setError(null);
  };

  async function post() {
    setBusy(true);
    setError(null);
    try {
      await props.onPost({ date, memo, lines: toSend(lines) });
    } catch (err) {
      setError(err instanceof Error ? err.message : "The entry could not be posted");
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={busy ? undefined : props.onClose} maxWidth="lg" fullWidth aria-labelledby="new-journal">
      <DialogTitle id="new-journal">New journal entry</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            <Box sx={{ width: { sm: 220 }, flexShrink: 0 }}>
              <DateField label="Date" required value={date} onChange={setDate} />
            </Box>
            <TextField
              label="Memo"
              required
              value={memo}
              onChange={(e) => setMemo(e.target.value)}
              placeholder="What the entry is for: November rent"
              fullWidth
            />
          </Stack>
          <Table size="small" aria-label="Journal lines">
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: "38%" }}>Account</TableCell>
                <TableCell align="right">Debit</TableCell>
                <TableCell align="right">Credit</TableCell>
                <TableCell>Line memo</TableCell>
                <TableCell padding="checkbox" />
              </TableRow>
            </TableHead>
            <TableBody>
              {lines.map((l, i) => (
                <TableRow key={l.key}>
                  <TableCell>
                    <Autocomplete
                      size="small"
                      options={active}
                      value={byCode.get(l.account_code) ?? null}
                      onChange={(_, a) => change(l.key, { account_code: a?.code ?? "" })}
                      getOptionLabel={(a) => `${a.code} ${a.name}`}
                      isOptionEqualToValue={(a, b) => a.code === b.code}
                      autoHighlight
                      renderInput={(params) => (
                        <TextField
                          {...params}
                          label={`Line ${i + 1} account`}
                          placeholder="Code or name"
                          autoFocus={l.key === focusKey}
                          error={cellError(i, "account_code")}
                        />
                      )}
                    />
                  </TableCell>
                  <TableCell align="right">
                    <TextField
                      size="small"
                      label={`Line ${i + 1} debit`}
                      value={l.debit}
                      onChange={(e) => change(l.key, { debit: e.target.value })}
                      error={cellError(i, "debit")}
                      slotProps={{ htmlInput: { inputMode: "decimal", style: { textAlign: "right" } } }}
                    />
                  </TableCell>
                  <TableCell align="right">
                    <TextField
                      size="small"
                      label={`Line ${i + 1} credit`}
                      value={l.credit}
                      onChange={(e) => change(l.key, { credit: e.target.value })}
                      error={cellError(i, "credit")}
                      onKeyDown={(e) => {
                        if (e.key === "Enter" && i === lines.length - 1) {
                          e.preventDefault();
                          addLine();
                        }
                      }}
                      slotProps={{ htmlInput: { inputMode: "decimal", style: { textAlign: "right" } } }}
                    />
                  </TableCell>
                  <TableCell>
                    <TextField
                      size="small"
                      label={`Line ${i + 1} memo`}
                      value={l.memo}
                      onChange={(e) => change(l.key, { memo: e.target.value })}
                      fullWidth
                    />
                  </TableCell>
                  <TableCell padding="checkbox">
                    <IconButton
                      aria-label={`Remove line ${i + 1}`}
                      disabled={lines.length <= 2}
                      onClick={() => setLines((ls) => ls.filter((x) => x.key !== l.key))}
                    >
                      <DeleteOutlined />
                    </IconButton>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
            <TableFooter>
              <TableRow>
                <TableCell>
                  <Button startIcon={<AddOutlined />} onClick={addLine}>
                    Add line
                  </Button>
                </TableCell>
                <TableCell align="right" data-testid="journal-debits">
                  <Typography sx={{ fontWeight: 600 }}>{formatCents(check.debit)}</Typography>
                </TableCell>
                <TableCell align="right" data-testid="journal-credits">
                  <Typography sx={{ fontWeight: 600 }}>{formatCents(check.credit)}</Typography>
                </TableCell>
                <TableCell colSpan={2}>
                  {check.difference !== "0.00" ? (
                    <Typography sx={{ color: "error.main", fontWeight: 600 }} data-testid="out-of-balance">
                      Out of balance by {formatCents(check.difference)}
                    </Typography>
                  ) : check.debit !== "0.00" ? (
                    <Typography sx={{ color: "success.main", fontWeight: 600 }}>Balanced</Typography>
                  ) : null}
                </TableCell>
              </TableRow>
            </TableFooter>
          </Table>
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        {check.blocker && (
          <Typography
            id="post-blocker"
            data-testid="post-blocker"
            variant="body2"
            color="text.secondary"
            sx={{ mr: "auto" }}
            role="status"
          >
            {check.blocker}
          </Typography>
        )}
        <Button onClick={props.onClose} disabled={busy}>
          Cancel
        </Button>
        <Button
          variant="contained"
          loading={busy}
          disabled={check.blocker !== null}
          aria-describedby={check.blocker ? "post-blocker" : undefined}
          onClick={post}
        >
          Post entry
        </Button>
      </DialogActions>
    </Dialog>
  );
}
