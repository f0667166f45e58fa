import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import LinearProgress from "@mui/material/LinearProgress";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { allowed, errorMessage } from "@workmetrics/domain";
import { COMMISSION_APPROVE_ACCESS } from "@workmetrics/domain/commission";
import { useState } from "react";
import toast from "react-hot-toast";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { DateField } from "../../platform/fields/DateField.tsx";
import { formatDate } from "../../platform/fields/format.ts";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { groupedAmount } from "../receivables/ageing.ts";
import { type Statement, useStatements } from "./api.ts";
import { StatusChip } from "./status.tsx";

// The approved and paid statements, newest period first (a salesperson's own); finance marks an approved one paid
// from a bank or cash account on a date (Dr 2400 Commission payable / Cr the bank).

export function StatementsList({ salesperson }: { salesperson?: string }) {
  const { member } = useViewer();
  const statements = useStatements();
  useErrorToast(statements.error);
  const [paying, setPaying] = useState<Statement | null>(null);
  const mayPay = allowed(member, COMMISSION_APPROVE_ACCESS);
  const rows = (statements.data ?? []).filter((s) => !salesperson || s.salesperson_id === salesperson);
  return (
    <Card variant="outlined">
      {statements.isFetching && <LinearProgress aria-label="Loading statements" />}
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          Approved statements
        </Typography>
        {statements.data && rows.length === 0 ? (
          <Typography color="text.secondary">No statement has been approved yet.</Typography>
        ) : (
          <Table size="small" aria-label="Approved statements">
            <TableHead>
              <TableRow>
                <TableCell>Period</TableCell>
                <TableCell>Salesperson</TableCell>
                <TableCell align="right">Commissionable</TableCell>
                <TableCell align="right">Rate</TableCell>
                <TableCell align="right">Commission</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Paid</TableCell>
                {mayPay && <TableCell />}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((s) => (
                <TableRow key={s.id}>
                  <TableCell>
                    {formatDate(s.period_from)} to {formatDate(s.period_to)}
                  </TableCell>
                  <TableCell>{s.salesperson}</TableCell>
                  <TableCell align="right">{groupedAmount(s.base)}</TableCell>
                  <TableCell align="right">{s.rate_percent}%</TableCell>
                  <TableCell align="right">{groupedAmount(s.commission)}</TableCell>
                  <TableCell>
                    <StatusChip status={s.status} />
                  </TableCell>
                  <TableCell>{s.paid_date ? `${formatDate(s.paid_date)} from ${s.paid_account}` : "—"}</TableCell>
                  {mayPay && (
                    <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                      {s.status === "approved" && Number(s.commission) > 0 && (
                        <Button size="small" onClick={() => setPaying(s)}>
                          Mark paid
                        </Button>
                      )}
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
      {paying && <PayDialog statement={paying} onClose={() => setPaying(null)} />}
    </Card>
  );
}

function PayDialog({ statement, onClose }: { statement: Statement; onClose(): void }) {
  const data = useDataProvider();
  const qc = useQueryClient();
  const [date, setDate] = useState(new Date().toISOString().slice(0, 10));
  const [account, setAccount] = useState("1010");
  const [busy, setBusy] = useState(false);
  const banks = useQuery({
    queryKey: ["commission", "bank-accounts"],
    queryFn: async () =>
      (
        await data.getList("account", {
          select: "code,name",
          filters: [{ column: "type", op: "in", value: "(bank,cash)" }],
          order: [{ column: "code", ascending: true }],
          range: [0, 99],
        })
      ).data as unknown as Array<{ code: string; name: string }>,
  });
  const pay = async () => {
    setBusy(true);
    try {
      await data.command("commission_pay", { statement_id: statement.id, date, account });
      toast.success(`Commission of ${statement.salesperson} marked paid`);
      await qc.invalidateQueries({ queryKey: ["commission-statements"] });
      await qc.invalidateQueries({ queryKey: ["report", "commission_statement"] });
      onClose();
    } catch (err) {
      toast.error(errorMessage(err, "The payment could not be recorded"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="pay-commission-title">
      <DialogTitle id="pay-commission-title">Mark commission paid</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {statement.salesperson}: {groupedAmount(statement.commission)} for {formatDate(statement.period_from)} to{" "}
          {formatDate(statement.period_to)}. Posts Dr 2400 Commission payable / Cr the account paid from.
        </DialogContentText>
        <Stack spacing={2}>
          <DateField label="Paid on" value={date} onChange={setDate} />
          <TextField select label="Paid from" value={account} onChange={(e) => setAccount(e.target.value)}>
            {(banks.data ?? [{ code: "1010", name: "Bank SGD" }]).map((a) => (
              <MenuItem key={a.code} value={a.code}>
                {a.code} {a.name}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" loading={busy} onClick={pay} disabled={!date}>
          Mark paid
        </Button>
      </DialogActions>
    </Dialog>
  );
}
