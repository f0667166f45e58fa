import AddOutlined from "@mui/icons-material/AddOutlined";
import KeyboardArrowDown from "@mui/icons-material/KeyboardArrowDown";
import KeyboardArrowRight from "@mui/icons-material/KeyboardArrowRight";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
import Collapse from "@mui/material/Collapse";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { BOOKS_ACCESS } from "@workmetrics/domain/resources/books";
import { Fragment, useEffect, useState } from "react";
import toast from "react-hot-toast";
import { Link as RouterLink, useSearchParams } from "react-router";
import { DateField } from "../../platform/fields/DateField.tsx";
import { formatCents, formatDate, humanize } from "../../platform/fields/format.ts";
import { useDecision } from "../../platform/resource/access.ts";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { findDocType } from "../documents/types.ts";
import { type JournalFilters, type JournalRow, useBooksCommand, useChart, useEntry, useJournal } from "./api.ts";
import { NewJournalDialog } from "./NewJournalDialog.tsx";

// Issue 12 "Journal" (/dashboard/journal): every journal entry, newest first — number, date, memo, the document that
// posted it (a link), the amount — narrowed by dates, an account and where it came from; an entry opens to its
// lines, and a manual one (or the opening balances) can be reversed with a reason. "New journal" posts a manual
// entry (BOOKS_ACCESS.postJournal, as the server asks).

const SOURCES = [
  { value: "all", label: "All entries" },
  { value: "manual", label: "Manual journals" },
  { value: "documents", label: "Posted by documents" },
  { value: "opening_balance", label: "Opening balances" },
  { value: "year_end_close", label: "Year-end closes" },
];

const PAGE_SIZES = [25, 50, 100];
const money = (v: unknown) => formatCents(v);

export default function JournalPage() {
  usePageTitle("Journal");
  const [params, setParams] = useSearchParams();
  const filters: JournalFilters = {
    from: params.get("from") ?? undefined,
    to: params.get("to") ?? undefined,
    account_code: params.get("account") ?? undefined,
    source: params.get("source") ?? "all",
    search: params.get("q") ?? undefined,
  };
  const [typed, setTyped] = useState(filters.search ?? "");
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(50);
  const [open, setOpen] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const journal = useJournal(filters, page, size);
  useErrorToast(journal.error);
  const chart = useChart();
  const mayPost = useDecision(BOOKS_ACCESS.postJournal).allowed;
  const postJournal = useBooksCommand("journal_post");

  const set = (key: string, value: string | null) => {
    const next = new URLSearchParams(window.location.search);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
    setPage(0);
  };
  useEffect(() => {
    const t = setTimeout(() => {
      if (typed.trim() !== (filters.search ?? "")) set("q", typed.trim() || null);
    }, 300);
    return () => clearTimeout(t);
  });

  const data = journal.data;
  const filtered = Boolean(
    filters.from || filters.to || filters.account_code || filters.search || filters.source !== "all",
  );
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography variant="h4" component="h1">
            Journal
          </Typography>
          <Typography color="text.secondary">Every entry in the books, from documents and by hand</Typography>
        </Box>
        {mayPost && (
          <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setCreating(true)}>
            New journal
          </Button>
        )}
      </Stack>
      <Stack direction={{ xs: "column", md: "row" }} spacing={2}>
        <TextField
          size="small"
          label="Search number or memo"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          sx={{ minWidth: 220 }}
        />
        <DateField
          size="small"
          fullWidth={false}
          label="From"
          value={filters.from ?? ""}
          onChange={(v) => set("from", v || null)}
        />
        <DateField
          size="small"
          fullWidth={false}
          label="To"
          value={filters.to ?? ""}
          onChange={(v) => set("to", v || null)}
        />
        <TextField
          select
          size="small"
          label="Account"
          value={filters.account_code ?? ""}
          onChange={(e) => set("account", e.target.value || null)}
          slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
          sx={{ minWidth: 220 }}
        >
          <MenuItem value="">All accounts</MenuItem>
          {(chart.data?.accounts ?? []).map((a) => (
            <MenuItem key={a.code} value={a.code}>
              {a.code} {a.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Source"
          value={filters.source ?? "all"}
          onChange={(e) => set("source", e.target.value === "all" ? null : e.target.value)}
          sx={{ minWidth: 200 }}
        >
          {SOURCES.map((s) => (
            <MenuItem key={s.value} value={s.value}>
              {s.label}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <Card variant="outlined">
        {!data ? (
          <Box sx={{ p: 2 }} aria-busy="true" aria-label="Loading the journal">
            {[0, 1, 2, 3, 4].map((i) => (
              <Skeleton key={i} height={36} />
            ))}
          </Box>
        ) : data.rows.length === 0 ? (
          <Box sx={{ p: 4, textAlign: "center" }} data-testid="journal-empty">
            <Typography variant="h6" component="p">
              {filtered ? "No entry matches" : "No journal entries yet"}
            </Typography>
            <Typography color="text.secondary">
              {filtered
                ? "Try other dates, another account or all sources."
                : "Documents post here when they are submitted; a manual journal is posted with New journal."}
            </Typography>
          </Box>
        ) : (
          <TableContainer>
            <Table size="small" aria-label="Journal entries">
              <TableHead>
                <TableRow>
                  <TableCell padding="checkbox" />
                  <TableCell>Number</TableCell>
                  <TableCell>Date</TableCell>
                  <TableCell>Memo</TableCell>
                  <TableCell>Source</TableCell>
                  <TableCell align="right">Amount</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.rows.map((r) => (
                  <Fragment key={r.id}>
                    <TableRow hover onClick={() => setOpen(open === r.id ? null : r.id)} sx={{ cursor: "pointer" }}>
                      <TableCell padding="checkbox">
                        <IconButton
                          size="small"
                          aria-label={open === r.id ? "Close entry" : `Open ${r.number ?? "entry"}`}
                        >
                          {open === r.id ? <KeyboardArrowDown /> : <KeyboardArrowRight />}
                        </IconButton>
                      </TableCell>
                      <TableCell sx={{ whiteSpace: "nowrap" }}>
                        {r.number ?? "—"}{" "}
                        {r.reversed_by != null && <Chip size="small" label="Reversed" sx={{ ml: 0.5 }} />}
                        {r.reversal_of != null && <Chip size="small" label="Reversal" sx={{ ml: 0.5 }} />}
                      </TableCell>
                      <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDate(r.entry_date)}</TableCell>
                      <TableCell>{r.memo}</TableCell>
                      <TableCell onClick={(e) => e.stopPropagation()}>
                        <Source row={r} />
                      </TableCell>
                      <TableCell align="right">{money(r.amount)}</TableCell>
                    </TableRow>
                    <TableRow>
                      <TableCell colSpan={6} sx={{ p: 0, borderBottom: open === r.id ? undefined : "none" }}>
                        <Collapse in={open === r.id} unmountOnExit>
                          <EntryLines id={r.id} row={r} mayReverse={mayPost} />
                        </Collapse>
                      </TableCell>
                    </TableRow>
                  </Fragment>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        {data && data.total > 0 && (
          <TablePagination
            component="div"
            count={data.total}
            page={page}
            onPageChange={(_, p) => setPage(p)}
            rowsPerPage={size}
            rowsPerPageOptions={PAGE_SIZES}
            onRowsPerPageChange={(e) => {
              setSize(Number(e.target.value));
              setPage(0);
            }}
          />
        )}
      </Card>
      {creating && (
        <NewJournalDialog
          accounts={chart.data?.accounts ?? []}
          onClose={() => setCreating(false)}
          onPost={async (args) => {
            const entry = await postJournal.mutateAsync(args);
            toast.success(`${entry.number} posted`);
            setCreating(false);
            setOpen(entry.id);
          }}
        />
      )}
    </Stack>
  );
}

// Where an entry came from: a link to the document that posted it, or what made it.
function Source({ row }: { row: JournalRow }) {
  const base = useDashboardBase();
  if (row.source_type == null) return <>Manual journal</>;
  if (row.source_type === "opening_balance") return <>Opening balances</>;
  if (row.source_type === "year_end_close") return <>Year-end close</>;
  const route = findDocType(row.source_type)?.header.route;
  const label = humanize(row.source_type);
  return route && row.source_id != null ? (
    <Link component={RouterLink} to={`${base}/${route}/${row.source_id}`}>
      {label}
    </Link>
  ) : (
    label
  );
}

function EntryLines({ id, row, mayReverse }: { id: number; row: JournalRow; mayReverse: boolean }) {
  const entry = useEntry(id);
  const chart = useChart();
  const names = new Map((chart.data?.accounts ?? []).map((a) => [a.code, a.name]));
  const [reversing, setReversing] = useState(false);
  const reversible =
    mayReverse &&
    row.reversed_by == null &&
    row.reversal_of == null &&
    (row.source_type == null || row.source_type === "opening_balance");
  if (entry.error)
    return (
      <Alert severity="error">
        {entry.error instanceof Error ? entry.error.message : "The entry could not be read"}
      </Alert>
    );
  if (!entry.data) return <Skeleton height={80} sx={{ mx: 2 }} aria-label="Loading the entry's lines" />;
  return (
    <Box sx={{ p: 2, bgcolor: "action.hover" }}>
      <Table size="small" aria-label={`Lines of ${row.number ?? "the entry"}`}>
        <TableHead>
          <TableRow>
            <TableCell>Account</TableCell>
            <TableCell>Memo</TableCell>
            <TableCell align="right">Debit</TableCell>
            <TableCell align="right">Credit</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {entry.data.lines.map((l) => (
            <TableRow key={l.line_no}>
              <TableCell>
                {l.account_code} {names.get(l.account_code) ?? ""}
              </TableCell>
              <TableCell>{l.memo}</TableCell>
              <TableCell align="right">{Number(l.debit) ? money(l.debit) : ""}</TableCell>
              <TableCell align="right">{Number(l.credit) ? money(l.credit) : ""}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {reversible && (
        <Box sx={{ mt: 1, textAlign: "right" }}>
          <Button color="error" onClick={() => setReversing(true)}>
            Reverse entry
          </Button>
        </Box>
      )}
      {reversing && <ReverseDialog row={row} onClose={() => setReversing(false)} />}
    </Box>
  );
}

function ReverseDialog({ row, onClose }: { row: JournalRow; onClose(): void }) {
  const reverse = useBooksCommand("journal_reverse");
  const [reason, setReason] = useState("");
  const [date, setDate] = useState(() => new Date().toISOString().slice(0, 10));
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog open onClose={reverse.isPending ? undefined : onClose} aria-labelledby="reverse-title">
      <DialogTitle id="reverse-title">Reverse {row.number}?</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          A new entry with the debits and credits swapped is posted on the date you choose; {row.number} stays in the
          books, marked reversed.
        </DialogContentText>
        <Stack spacing={2}>
          <DateField label="Date" value={date} onChange={setDate} />
          <TextField label="Reason" required value={reason} onChange={(e) => setReason(e.target.value)} autoFocus />
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={reverse.isPending}>
          Cancel
        </Button>
        <Button
          color="error"
          variant="contained"
          disabled={!reason.trim()}
          loading={reverse.isPending}
          onClick={async () => {
            try {
              const r = await reverse.mutateAsync({ id: row.id, date, reason });
              toast.success(`${row.number} reversed by ${r.number}`);
              onClose();
            } catch (err) {
              setError(err instanceof Error ? err.message : "The entry could not be reversed");
            }
          }}
        >
          Reverse
        </Button>
      </DialogActions>
    </Dialog>
  );
}
