import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import MenuItem from "@mui/material/MenuItem";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { BOOKS_ACCESS, financialYear } from "@workmetrics/domain/resources/books";
import { useState } from "react";
import toast from "react-hot-toast";
import { DateField } from "../../platform/fields/DateField.tsx";
import { formatCents, formatDate, formatDateTime, formatSpelledDate } from "../../platform/fields/format.ts";
import { useDecision } from "../../platform/resource/access.ts";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { ReasonDialog } from "../documents/DocumentDialogs.tsx";
import { type BooksState, type Close, MONTHS, useBooksCommand, useBooksState } from "./api.ts";
import { OpeningBalances } from "./OpeningBalances.tsx";

// Issue 12 "Lock date" and "Year-end close" (/dashboard/period-close): the date up to which nothing posts (the
// database refuses any entry on or before it — documents, payments, journals), the financial year's first month,
// the year-end close (income and expense moved to 3100 Retained Earnings, the year locked) and its reopening, and
// the opening balances by CSV. Finance managers change them (account.update); accounts staff read them and upload
// opening balances (journal_entry.create).

export default function PeriodClosePage() {
  usePageTitle("Period close");
  const state = useBooksState();
  useErrorToast(state.error);
  const mayLock = useDecision(BOOKS_ACCESS.lockBooks).allowed;
  const mayClose = useDecision(BOOKS_ACCESS.closeYear).allowed;
  const mayPost = useDecision(BOOKS_ACCESS.postJournal).allowed;
  const s = state.data;
  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h4" component="h1">
          Period close
        </Typography>
        <Typography color="text.secondary">The lock date, the year-end close and the opening balances</Typography>
      </Box>
      {!s ? (
        <Card variant="outlined" sx={{ p: 2 }} aria-busy="true" aria-label="Loading the books settings">
          <Skeleton height={120} />
        </Card>
      ) : (
        <>
          <LockDate state={s} mayLock={mayLock} />
          <YearEnd state={s} mayClose={mayClose} />
          <OpeningBalances state={s} mayPost={mayPost} />
        </>
      )}
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

function LockDate({ state, mayLock }: { state: BooksState; mayLock: boolean }) {
  const set = useBooksCommand("books_settings_set");
  const [date, setDate] = useState(state.lock_date ?? "");
  const [month, setMonth] = useState(state.fy_start_month);
  const [error, setError] = useState<string | null>(null);
  const changed = (date || null) !== state.lock_date || month !== state.fy_start_month;
  return (
    <Section title="Lock date">
      <Typography sx={{ mb: 2 }} data-testid="lock-date-summary">
        {state.lock_date
          ? `The books are locked up to ${formatSpelledDate(state.lock_date)}: nothing can be posted on or before that date.`
          : "The books are not locked: entries can be posted on any date."}
        {state.lock_set_by && state.lock_set_at && (
          <Typography component="span" color="text.secondary">
            {" "}
            Set by {state.lock_set_by}, {formatDateTime(state.lock_set_at)}.
          </Typography>
        )}
      </Typography>
      {mayLock ? (
        <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
          <DateField size="small" fullWidth={false} label="Lock date" value={date} onChange={setDate} />
          <TextField
            select
            size="small"
            label="Financial year starts in"
            value={month}
            onChange={(e) => setMonth(Number(e.target.value))}
            sx={{ minWidth: 200 }}
          >
            {MONTHS.map((m, i) => (
              <MenuItem key={m} value={i + 1}>
                {m}
              </MenuItem>
            ))}
          </TextField>
          <Button
            variant="contained"
            disabled={!changed}
            loading={set.isPending}
            onClick={async () => {
              setError(null);
              try {
                await set.mutateAsync({ lock_date: date || null, fy_start_month: month });
                toast.success(date ? `Books locked up to ${formatSpelledDate(date)}` : "Lock date cleared");
              } catch (err) {
                setError(err instanceof Error ? err.message : "The lock date could not be set");
              }
            }}
          >
            Save
          </Button>
          {state.lock_date && (
            <Button onClick={() => setDate("")} disabled={!date}>
              Clear
            </Button>
          )}
        </Stack>
      ) : (
        <Typography color="text.secondary">
          Financial years start in {MONTHS[state.fy_start_month - 1]}. A finance manager sets the lock date.
        </Typography>
      )}
      {error && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {error}
        </Alert>
      )}
    </Section>
  );
}

function YearEnd({ state, mayClose }: { state: BooksState; mayClose: boolean }) {
  const close = useBooksCommand("year_end_close");
  const reopen = useBooksCommand("year_end_reopen");
  // The last financial year that has ended.
  const lastEnded = (() => {
    const today = new Date().toISOString().slice(0, 10);
    const current = financialYear(today, state.fy_start_month);
    const d = new Date(`${current.start}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() - 1);
    return d.toISOString().slice(0, 10);
  })();
  const [yearEnd, setYearEnd] = useState(lastEnded);
  const [confirming, setConfirming] = useState(false);
  const [reopening, setReopening] = useState<Close | null>(null);
  const [error, setError] = useState<string | null>(null);
  const year = financialYear(yearEnd || lastEnded, state.fy_start_month);
  return (
    <Section title="Year-end close">
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Closing a financial year posts one entry on its last day moving every income and expense account's balance for
        the year to 3100 Retained Earnings, and locks the books up to that day.
      </Typography>
      {mayClose && (
        <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" }, mb: 2 }}>
          <DateField
            size="small"
            fullWidth={false}
            label="Year's last day"
            value={yearEnd}
            onChange={setYearEnd}
            helperText={`Financial year ${formatSpelledDate(year.start)} – ${formatSpelledDate(year.end)}`}
          />
          <Button variant="contained" disabled={!yearEnd} onClick={() => setConfirming(true)}>
            Close the year
          </Button>
        </Stack>
      )}
      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      )}
      {state.closes.length === 0 ? (
        <Typography color="text.secondary" data-testid="closes-empty">
          No financial year has been closed yet.
        </Typography>
      ) : (
        <Table size="small" aria-label="Year-end closes">
          <TableHead>
            <TableRow>
              <TableCell>Financial year</TableCell>
              <TableCell>Entry</TableCell>
              <TableCell align="right">Profit moved</TableCell>
              <TableCell>Closed</TableCell>
              <TableCell>Reopened</TableCell>
              {mayClose && <TableCell />}
            </TableRow>
          </TableHead>
          <TableBody>
            {state.closes.map((c, i) => (
              <TableRow key={c.id}>
                <TableCell>
                  {formatDate(c.year_start)} – {formatDate(c.year_end)}
                </TableCell>
                <TableCell>{c.number}</TableCell>
                <TableCell align="right">{formatCents(c.profit)}</TableCell>
                <TableCell>
                  {formatDateTime(c.closed_at)}
                  {c.closed_by ? ` by ${c.closed_by}` : ""}
                </TableCell>
                <TableCell>
                  {c.reopened_at
                    ? `${formatDateTime(c.reopened_at)}${c.reopened_by ? ` by ${c.reopened_by}` : ""}: ${c.reopen_reason ?? ""}`
                    : ""}
                </TableCell>
                {mayClose && (
                  <TableCell align="right">
                    {!c.reopened_at && i === state.closes.findIndex((x) => !x.reopened_at) && (
                      <Button size="small" color="error" onClick={() => setReopening(c)}>
                        Reopen
                      </Button>
                    )}
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {confirming && (
        <ConfirmDialog
          open
          title={`Close the year ending ${formatSpelledDate(year.end)}?`}
          body={`Income and expense from ${formatSpelledDate(year.start)} to ${formatSpelledDate(year.end)} move to 3100 Retained Earnings and the books are locked up to ${formatSpelledDate(year.end)}. A finance manager can reopen the year later.`}
          confirmLabel="Close the year"
          onCancel={() => setConfirming(false)}
          onConfirm={async () => {
            setError(null);
            try {
              const r = await close.mutateAsync({ year_end_date: yearEnd });
              toast.success(`Year closed by ${r.entry.number}: ${formatCents(r.profit)} to retained earnings`);
            } catch (err) {
              setError(err instanceof Error ? err.message : "The year could not be closed");
            }
            setConfirming(false);
          }}
        />
      )}
      {reopening && (
        <ReasonDialog
          open
          title={`Reopen the year ending ${formatSpelledDate(reopening.year_end)}?`}
          prompt={`${reopening.number} is reversed, so its income and expense show again, and the books stay locked up to the day before the year starts.`}
          confirmLabel="Reopen"
          destructive
          onCancel={() => setReopening(null)}
          onConfirm={async (reason) => {
            try {
              await reopen.mutateAsync({ id: reopening.id, reason });
              toast.success("Year reopened");
              setReopening(null);
            } catch (err) {
              toast.error(err instanceof Error ? err.message : "The year could not be reopened");
            }
          }}
        />
      )}
    </Section>
  );
}
