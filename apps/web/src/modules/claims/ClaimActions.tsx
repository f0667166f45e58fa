import AccountTreeOutlined from "@mui/icons-material/AccountTreeOutlined";
import FactCheckOutlined from "@mui/icons-material/FactCheckOutlined";
import LockOpenOutlined from "@mui/icons-material/LockOpenOutlined";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import LinearProgress from "@mui/material/LinearProgress";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { errorMessage, memberRequirement } from "@workmetrics/domain";
import { dec } from "@workmetrics/domain/documents/decimal";
import { decideTransition } from "@workmetrics/domain/documents/machine";
import { PROGRESSIVE_CLAIM } from "@workmetrics/domain/documents/types/progressive-claim";
import { formatMoney } from "@workmetrics/domain/money";
import { REPORT_ACCESS } from "@workmetrics/domain/reports";
import { useState } from "react";
import toast from "react-hot-toast";
import { useNavigate } from "react-router";
import { type Row, useDataProvider } from "../../platform/data-access/provider.ts";
import { DateField } from "../../platform/fields/DateField.tsx";
import { formatDate } from "../../platform/fields/format.ts";
import { useDecision, useMember } from "../../platform/resource/access.ts";
import { useRefreshDocuments } from "../documents/api.ts";

// A progressive claim's own buttons on its document page (WebDocType.pageActions): record the customer's payment
// response (claim_response: certified amount, what is withheld and why — SOP Act s11), release retention (a release
// claim made from the contract), and the contract's retention schedule. Each is offered to whoever the server lets do
// it (the same Requirements). A payment is recorded by the document page's one Record payment (documents/payments.ts).

const todayIso = () => new Date().toISOString().slice(0, 10);

function ResponseDialog({ doc, onClose }: { doc: Row; onClose(): void }) {
  const data = useDataProvider();
  const refresh = useRefreshDocuments();
  const [certified, setCertified] = useState(String(doc.total ?? ""));
  const [reasons, setReasons] = useState("");
  const [on, setOn] = useState(todayIso());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const currency = String(doc.currency ?? "SGD");
  let withheld = "0.00";
  try {
    withheld = dec(String(doc.total))
      .minus(dec(certified || "0"))
      .toFixed(2);
  } catch {
    withheld = "—";
  }
  async function submit() {
    setBusy(true);
    setError(null);
    try {
      await data.command("claim_response", {
        id: Number(doc.id),
        certified_amount: certified,
        withheld_reasons: reasons || null,
        response_date: on,
      });
      toast.success(`Payment response to ${String(doc.number)} recorded`);
      await refresh();
      onClose();
    } catch (err) {
      setError(errorMessage(err, "The payment response could not be recorded"));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>Payment response to {String(doc.number)}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            Claimed {formatMoney(String(doc.total), currency)}; the response was due by {String(doc.response_due ?? "")}
            .
          </Typography>
          <TextField
            label="Certified amount"
            value={certified}
            onChange={(e) => setCertified(e.target.value)}
            slotProps={{ htmlInput: { inputMode: "decimal" } }}
            helperText={withheld !== "0.00" ? `Withheld: ${withheld}` : "Certified in full"}
          />
          <TextField
            label="Reasons for withholding"
            value={reasons}
            onChange={(e) => setReasons(e.target.value)}
            multiline
            minRows={2}
            helperText="Required when less than the claim is certified (SOP Act s11)"
          />
          <DateField label="Response date" value={on} onChange={setOn} />
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit} loading={busy}>
          Record response
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function RetentionSchedule({ salesOrderId, projectId }: { salesOrderId?: number; projectId?: number }) {
  const data = useDataProvider();
  const args = {
    name: "retention_schedule",
    ...(salesOrderId ? { sales_order_id: salesOrderId } : {}),
    ...(projectId ? { project_id: projectId } : {}),
  };
  const q = useQuery({
    queryKey: ["report", "retention_schedule", args],
    queryFn: ({ signal }) => data.command("report", args, signal),
  });
  if (q.isPending) return <LinearProgress aria-label="Loading the retention schedule" />;
  if (q.isError)
    return <Alert severity="error">{errorMessage(q.error, "The retention schedule could not be read")}</Alert>;
  const report = q.data;
  if (report.rows.length === 0) {
    return <Typography color="text.secondary">No retention is held yet: nothing has been claimed.</Typography>;
  }
  return (
    <Table size="small" aria-label="Retention schedule">
      <TableHead>
        <TableRow>
          {report.columns.map((c) => (
            <TableCell key={c.key} align={c.kind === "money" ? "right" : "left"}>
              {c.label}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {report.rows.map((r) => (
          <TableRow key={String(r.contract)}>
            {report.columns.map((c) => (
              <TableCell
                key={c.key}
                align={c.kind === "money" ? "right" : "left"}
                sx={{ fontVariantNumeric: "tabular-nums", whiteSpace: c.kind === "text" ? "normal" : "nowrap" }}
              >
                {c.kind === "date" && r[c.key]
                  ? formatDate(String(r[c.key]))
                  : c.kind === "money"
                    ? formatMoney(String(r[c.key] ?? "0"), String(r.currency ?? "SGD"))
                    : String(r[c.key] ?? "—")}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export default function ClaimActions({ doc, status }: { doc: Row; status: string }) {
  const data = useDataProvider();
  const navigate = useNavigate();
  const refresh = useRefreshDocuments();
  const member = useMember();
  const [open, setOpen] = useState<"response" | "schedule" | null>(null);
  const [releasing, setReleasing] = useState(false);
  // The payment response is the claim's `certify` action: offered by the machine's own rule (its from-states,
  // permission and guard), as claim_response runs it.
  const mayRespond = decideTransition(
    PROGRESSIVE_CLAIM,
    { status, today: todayIso(), header: doc, lines: [] },
    "certify",
    member,
  ).allowed;
  const mayCreate = useDecision(
    memberRequirement("progressive_claim.create", "create progressive claims", "projects"),
  ).allowed;
  const maySchedule = useDecision(REPORT_ACCESS.retention_schedule).allowed;
  const currency = String(doc.currency ?? "SGD");
  const submitted = status !== "draft" && status !== "cancelled";
  // Release retention is offered as convert would answer it now (claim_release_check): enabled, disabled with the
  // refusal as a blocked action is, or not at all on a contract without a project, which can never release.
  const releasable = mayCreate && submitted && doc.kind === "progress" && doc.source_id != null;
  const check = useQuery({
    queryKey: ["progressive_claim", "release_check", String(doc.source_id), doc.updated_at],
    queryFn: ({ signal }) => data.command("claim_release_check", { sales_order_id: Number(doc.source_id) }, signal),
    enabled: releasable,
  });
  const refused = check.data && "refused" in check.data ? check.data : null;

  async function release() {
    setReleasing(true);
    try {
      const made = await data.command("document_convert", {
        type: "sales_order",
        id: Number(doc.source_id),
        to: "progressive_claim",
        header: { kind: "release" },
      });
      await refresh();
      toast.success("Release claim drafted");
      navigate(`../${String(made.id)}`, { relative: "path" });
    } catch (err) {
      toast.error(errorMessage(err, "The retention could not be released"));
    } finally {
      setReleasing(false);
    }
  }

  return (
    <>
      {doc.certified_amount != null && (
        <Tooltip
          title={
            dec(String(doc.withheld_amount ?? "0")).isZero()
              ? `Certified in full on ${String(doc.response_date)}`
              : `Withheld ${formatMoney(String(doc.withheld_amount), currency)}: ${String(doc.withheld_reasons ?? "")}`
          }
        >
          <Chip
            icon={<FactCheckOutlined />}
            label={`Certified ${formatMoney(String(doc.certified_amount), currency)}`}
            color={dec(String(doc.withheld_amount ?? "0")).isZero() ? "success" : "warning"}
            variant="outlined"
            data-testid="claim-certified"
          />
        </Tooltip>
      )}
      {mayRespond && (
        <Button variant="outlined" startIcon={<FactCheckOutlined />} onClick={() => setOpen("response")}>
          Record payment response
        </Button>
      )}
      {releasable && check.data && !refused?.never && (
        <Tooltip title={refused?.refused ?? ""}>
          <span>
            <Button
              variant="outlined"
              startIcon={<LockOpenOutlined />}
              onClick={release}
              loading={releasing}
              disabled={refused !== null}
            >
              Release retention
            </Button>
          </span>
        </Tooltip>
      )}
      {maySchedule && doc.source_id != null && (
        <Button variant="text" startIcon={<AccountTreeOutlined />} onClick={() => setOpen("schedule")}>
          Retention schedule
        </Button>
      )}
      {open === "response" && <ResponseDialog doc={doc} onClose={() => setOpen(null)} />}
      {open === "schedule" && (
        <Dialog open onClose={() => setOpen(null)} fullWidth maxWidth="lg">
          <DialogTitle>Retention schedule</DialogTitle>
          <DialogContent>
            <RetentionSchedule salesOrderId={Number(doc.source_id)} />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(null)}>Close</Button>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
}
