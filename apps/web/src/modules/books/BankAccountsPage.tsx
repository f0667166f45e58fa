import AddOutlined from "@mui/icons-material/AddOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
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
import { BOOKS_ACCESS } from "@workmetrics/domain/resources/books";
import { useState } from "react";
import toast from "react-hot-toast";
import { formatCents } from "../../platform/fields/format.ts";
import { useDecision } from "../../platform/resource/access.ts";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import {
  type BankAccount,
  maskAccountNumber,
  naturalBalance,
  useBankAccounts,
  useBooksCommand,
  useChart,
} from "./api.ts";

// Issue 12 "Bank accounts" (/dashboard/bank-accounts): the workspace's bank accounts, numbers masked, each with the
// ledger account it posts to and that account's balance today. A new one posts to a bank account of the chart that
// has none yet, or to a new 10xx made for it. Payments (record_payment) still post to 1010 Bank SGD or 1000 Cash.

const NEW_LEDGER = "new";

export default function BankAccountsPage() {
  usePageTitle("Bank accounts");
  const banks = useBankAccounts();
  useErrorToast(banks.error);
  const chart = useChart();
  const mayCreate = useDecision(BOOKS_ACCESS.createBankAccount).allowed;
  const mayUpdate = useDecision(BOOKS_ACCESS.updateBankAccount).allowed;
  const [editing, setEditing] = useState<BankAccount | "new" | null>(null);
  const [toggling, setToggling] = useState<BankAccount | null>(null);
  const update = useBooksCommand("bank_account_update");
  const ledger = new Map((chart.data?.accounts ?? []).map((a) => [a.code, a]));

  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography variant="h4" component="h1">
            Bank accounts
          </Typography>
          <Typography color="text.secondary">Where the money is kept, and the ledger account each posts to</Typography>
        </Box>
        {mayCreate && (
          <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setEditing("new")}>
            Add bank account
          </Button>
        )}
      </Stack>
      <Card variant="outlined">
        {!banks.data ? (
          <Box sx={{ p: 2 }} aria-busy="true" aria-label="Loading the bank accounts">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={36} />
            ))}
          </Box>
        ) : banks.data.length === 0 ? (
          <Box sx={{ p: 4, textAlign: "center" }} data-testid="banks-empty">
            <Typography variant="h6" component="p">
              No bank accounts yet
            </Typography>
            <Typography color="text.secondary">
              {mayCreate ? "Add the accounts the business banks with." : "A finance manager adds them."}
            </Typography>
          </Box>
        ) : (
          <Table size="small" aria-label="Bank accounts">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Bank</TableCell>
                <TableCell>Account number</TableCell>
                <TableCell>Currency</TableCell>
                <TableCell>Ledger account</TableCell>
                <TableCell align="right">Balance today</TableCell>
                {mayUpdate && <TableCell />}
              </TableRow>
            </TableHead>
            <TableBody>
              {banks.data.map((b) => {
                const acc = ledger.get(b.ledger_account_code);
                return (
                  <TableRow key={b.id} sx={{ opacity: b.active ? 1 : 0.6 }}>
                    <TableCell>
                      {b.name}
                      {!b.active && <Chip size="small" label="Inactive" sx={{ ml: 1 }} />}
                    </TableCell>
                    <TableCell>{b.bank_name}</TableCell>
                    <TableCell sx={{ fontFamily: "monospace" }}>{maskAccountNumber(b.account_number)}</TableCell>
                    <TableCell>{b.currency}</TableCell>
                    <TableCell>
                      {b.ledger_account_code} {acc?.name ?? ""}
                    </TableCell>
                    <TableCell align="right">{acc ? formatCents(naturalBalance(acc)) : ""}</TableCell>
                    {mayUpdate && (
                      <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                        <Button size="small" onClick={() => setEditing(b)}>
                          Edit
                        </Button>
                        <Button size="small" color={b.active ? "error" : "primary"} onClick={() => setToggling(b)}>
                          {b.active ? "Deactivate" : "Activate"}
                        </Button>
                      </TableCell>
                    )}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </Card>
      {editing && <BankDialog bank={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      {toggling && (
        <ConfirmDialog
          open
          title={`${toggling.active ? "Deactivate" : "Activate"} ${toggling.name}?`}
          body={
            toggling.active
              ? "It stays in the books with its history; it is no longer offered."
              : "It is offered again."
          }
          confirmLabel={toggling.active ? "Deactivate" : "Activate"}
          destructive={toggling.active}
          onCancel={() => setToggling(null)}
          onConfirm={async () => {
            try {
              await update.mutateAsync({ id: toggling.id, active: !toggling.active });
              setToggling(null);
            } catch (err) {
              toast.error(err instanceof Error ? err.message : "The bank account could not be changed");
            }
          }}
        />
      )}
    </Stack>
  );
}

function BankDialog({ bank, onClose }: { bank: BankAccount | null; onClose(): void }) {
  const create = useBooksCommand("bank_account_create");
  const update = useBooksCommand("bank_account_update");
  const chart = useChart();
  const banks = useBankAccounts();
  const [name, setName] = useState(bank?.name ?? "");
  const [bankName, setBankName] = useState(bank?.bank_name ?? "");
  const [number, setNumber] = useState(bank?.account_number ?? "");
  const [currency, setCurrency] = useState(bank?.currency ?? "SGD");
  const [ledgerCode, setLedgerCode] = useState(NEW_LEDGER);
  const [error, setError] = useState<string | null>(null);
  const taken = new Set((banks.data ?? []).map((b) => b.ledger_account_code));
  const free = (chart.data?.accounts ?? []).filter(
    (a) => a.active && (a.type === "bank" || a.type === "cash") && !taken.has(a.code),
  );
  const busy = create.isPending || update.isPending;
  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="bank-dialog" fullWidth maxWidth="sm">
      <DialogTitle id="bank-dialog">{bank ? `Edit ${bank.name}` : "Add bank account"}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField label="Name" required value={name} onChange={(e) => setName(e.target.value)} autoFocus />
          <TextField label="Bank" required value={bankName} onChange={(e) => setBankName(e.target.value)} />
          <TextField label="Account number" required value={number} onChange={(e) => setNumber(e.target.value)} />
          {!bank && (
            <>
              <TextField
                label="Currency"
                value={currency}
                onChange={(e) => setCurrency(e.target.value.toUpperCase())}
                slotProps={{ htmlInput: { maxLength: 3 } }}
              />
              <TextField
                select
                label="Ledger account"
                value={ledgerCode}
                onChange={(e) => setLedgerCode(e.target.value)}
                helperText="The account of the chart its money is booked to"
              >
                <MenuItem value={NEW_LEDGER}>A new bank account in the chart (10xx)</MenuItem>
                {free.map((a) => (
                  <MenuItem key={a.code} value={a.code}>
                    {a.code} {a.name}
                  </MenuItem>
                ))}
              </TextField>
            </>
          )}
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button
          variant="contained"
          loading={busy}
          disabled={!name.trim() || !bankName.trim() || !number.trim()}
          onClick={async () => {
            try {
              if (bank) {
                await update.mutateAsync({ id: bank.id, name, bank_name: bankName, account_number: number });
              } else {
                const made = await create.mutateAsync({
                  name,
                  bank_name: bankName,
                  account_number: number,
                  currency,
                  ledger_account_code: ledgerCode === NEW_LEDGER ? null : ledgerCode,
                });
                toast.success(`${made.name} added, posting to ${made.ledger_account_code}`);
              }
              onClose();
            } catch (err) {
              setError(err instanceof Error ? err.message : "The bank account could not be saved");
            }
          }}
        >
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
