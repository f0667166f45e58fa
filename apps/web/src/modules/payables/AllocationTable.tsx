import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import { groupedAmount } from "../receivables/ageing.ts";
import type { Allocation, Payable } from "./pay.ts";

// A supplier's invoices with what each owes and an amount typed against each: what a payment (Pay) or a credit
// (Use) puts on it.
export function AllocationTable(props: {
  label: string;
  verb: string;
  header: string;
  payable: readonly Payable[];
  allocations: readonly Allocation[];
  onChange(id: number, amount: string): void;
}) {
  return (
    <Table size="small" aria-label={props.label}>
      <TableHead>
        <TableRow>
          <TableCell>Invoice</TableCell>
          <TableCell align="right">Outstanding</TableCell>
          <TableCell align="right" sx={{ width: 150 }}>
            {props.header}
          </TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {props.payable.map((p) => (
          <TableRow key={p.id}>
            <TableCell>{p.number}</TableCell>
            <TableCell align="right">{groupedAmount(p.outstanding)}</TableCell>
            <TableCell align="right">
              <TextField
                size="small"
                value={props.allocations.find((a) => a.id === p.id)?.amount ?? ""}
                onChange={(e) => props.onChange(p.id, e.target.value)}
                slotProps={{ htmlInput: { inputMode: "decimal", "aria-label": `${props.verb} on ${p.number}` } }}
              />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
