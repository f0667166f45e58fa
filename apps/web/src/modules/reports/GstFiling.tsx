import TaskAltOutlined from "@mui/icons-material/TaskAltOutlined";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { decide, type Requirement } from "@workmetrics/domain";
import { REPORT_ACCESS, type ReportResult } from "@workmetrics/domain/reports";
import { useState } from "react";
import toast from "react-hot-toast";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { formatDate, formatDateTime, formatSpelledDate } from "../../platform/fields/format.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import { groupedAmount, todayIso } from "../receivables/ageing.ts";

// Issue 12 "GST F5 for a quarter": whether the quarter's return is filed ("Filed on … by …", from gst_return) and,
// when it is not, "File this return" — gst_f5_file {from, to} records the boxes as they stand and posts the
// settlement; the server decides who may (the finance roles) and refuses a period overlapping one filed before.

// gst_f5_file's own requirement (the server's defineRpc): whoever posts journals files, on the financial reports' tier.
const FILE_GST: Requirement = {
  audience: "member",
  permission: "journal_entry.create",
  feature: "financial_reports",
  does: "file GST returns",
  subject: "GST returns",
};

type Filed = {
  id: number;
  filed_at: string;
  filed_by: string | null;
  box8: string;
  period_from: string;
  period_to: string;
};

export function GstFiling(props: { from?: string; to?: string; report: ReportResult }) {
  const { from, to } = props;
  const data = useDataProvider();
  const qc = useQueryClient();
  const { member } = useViewer();
  const [asking, setAsking] = useState(false);
  const filed = useQuery({
    queryKey: ["gst_return", from, to],
    enabled: Boolean(from && to),
    queryFn: async () => {
      const res = await data.getList("gst_return", {
        select: "id,period_from,period_to,filed_at,filed_by,box8",
        filters: [
          { column: "period_from", op: "lte", value: String(to) },
          { column: "period_to", op: "gte", value: String(from) },
        ],
        range: [0, 0],
      });
      const row = res.data[0] as unknown as Filed | undefined;
      if (!row?.filed_by) return row ?? null;
      const who = await data
        .getList("user", {
          select: "id,name",
          filters: [{ column: "id", op: "eq", value: row.filed_by }],
          range: [0, 0],
        })
        .then((r) => String(r.data[0]?.name ?? ""))
        .catch(() => "");
      return { ...row, filed_by: who || null };
    },
  });
  const file = useMutation({
    mutationFn: () => data.command("gst_f5_file", { from: String(from), to: String(to) }),
    onSuccess: async () => {
      toast.success("The GST return is filed");
      await qc.invalidateQueries({ queryKey: ["gst_return"] });
      await qc.invalidateQueries({ queryKey: ["report"] });
    },
    onError: (e) => toast.error(e instanceof Error ? e.message : "The return could not be filed"),
  });
  if (!from || !to || filed.isPending) return null;
  const row = filed.data;
  if (row) {
    const same = row.period_from === from && row.period_to === to;
    return (
      <Alert severity={same ? "success" : "warning"} icon={<TaskAltOutlined />} data-testid="gst-filed">
        {same
          ? "Filed"
          : `A return for ${formatSpelledDate(row.period_from)} to ${formatSpelledDate(row.period_to)} was filed`}{" "}
        on {formatDateTime(row.filed_at)}
        {row.filed_by ? ` by ${row.filed_by}` : ""}; net GST {groupedAmount(row.box8)}.
      </Alert>
    );
  }
  const may = decide(member, REPORT_ACCESS.gst_f5).allowed && decide(member, FILE_GST).allowed;
  if (!may) return null;
  if (to >= todayIso()) {
    return (
      <Alert severity="info" data-testid="gst-not-over">
        Not filed. The period ends on {formatDate(to)}; a return is filed once its period is over.
      </Alert>
    );
  }
  const box8 = String(props.report.totals.box8 ?? "0");
  return (
    <Alert
      severity="info"
      action={
        <Button
          color="inherit"
          variant="outlined"
          size="small"
          disabled={file.isPending}
          onClick={() => setAsking(true)}
        >
          File this return
        </Button>
      }
    >
      Not filed yet. Filing records these boxes for {formatDate(from)} to {formatDate(to)} and posts the settlement of{" "}
      {groupedAmount(box8)} GST.
      <ConfirmDialog
        open={asking}
        title="File this GST return?"
        confirmLabel="File return"
        onCancel={() => setAsking(false)}
        body="The boxes are recorded as they stand now; this period cannot be filed again."
        onConfirm={async () => {
          await file.mutateAsync().catch(() => undefined);
          setAsking(false);
        }}
      />
    </Alert>
  );
}
