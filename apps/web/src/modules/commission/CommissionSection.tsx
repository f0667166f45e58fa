import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { allowed, decide, errorMessage, type Requirement } from "@workmetrics/domain";
import { COMMISSION_RULES_ACCESS } from "@workmetrics/domain/commission";
import { useState } from "react";
import toast from "react-hot-toast";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import { Section } from "../account/Section.tsx";
import { type Rule, useRules } from "./api.ts";
import { RuleDialog } from "./RuleDialog.tsx";

// Issue 12 "Commission": the rules live in workspace settings (Premium). Whoever reads commission sees them; finance
// (commission.update) adds, changes and deletes them. A Pro or Lite workspace is told which tier has them.

const READ: Requirement = { ...COMMISSION_RULES_ACCESS, permission: "commission.read", does: "read commission rules" };

const describe = (r: Rule) => {
  const rate = r.tiers.length
    ? r.tiers.map((t) => `${t.rate_percent}% from ${t.from_percent}%`).join(", ")
    : `${r.rate_percent}%`;
  return `${rate} of ${r.basis === "invoiced" ? "invoiced" : "collected"}, ${r.period}`;
};

export function CommissionSection() {
  const { member } = useViewer();
  const read = decide(member, READ);
  if (!read.allowed && read.reason !== "tier") return null;
  return (
    <Section
      title="Commission rules"
      description="A percentage of what each salesperson invoices or collects, per month or quarter, optionally in tiers by target achieved, leaving out categories. A salesperson's own rule wins over their role's."
    >
      {read.allowed ? (
        <Rules editable={allowed(member, COMMISSION_RULES_ACCESS)} />
      ) : (
        <Typography color="text.secondary">{read.message}</Typography>
      )}
    </Section>
  );
}

function Rules({ editable }: { editable: boolean }) {
  const data = useDataProvider();
  const qc = useQueryClient();
  const rules = useRules();
  useErrorToast(rules.error);
  const [editing, setEditing] = useState<Rule | "new" | null>(null);
  const [deleting, setDeleting] = useState<Rule | null>(null);
  const options = useQuery({
    queryKey: ["commission", "rule-options"],
    enabled: editable,
    queryFn: async () => {
      const [users, categories] = await Promise.all([
        data.getList("user", {
          select: "id,name",
          filters: [{ column: "active", op: "eq", value: "true" }],
          order: [{ column: "name", ascending: true }],
          range: [0, 499],
        }),
        data.getList("category", { select: "id,name", order: [{ column: "name", ascending: true }], range: [0, 499] }),
      ]);
      return {
        users: users.data as unknown as Array<{ id: string; name: string }>,
        categories: categories.data as unknown as Array<{ id: number; name: string }>,
      };
    },
  });
  const remove = async () => {
    if (!deleting) return;
    try {
      await data.command("commission_rule_delete", { id: deleting.id });
      toast.success("Commission rule deleted");
      setDeleting(null);
      await qc.invalidateQueries({ queryKey: ["commission-rules"] });
    } catch (err) {
      toast.error(errorMessage(err, "The rule could not be deleted"));
    }
  };
  const list = rules.data ?? [];
  return (
    <>
      {rules.data && list.length === 0 && <Typography color="text.secondary">No commission rules yet.</Typography>}
      {list.length > 0 && (
        <Table size="small" aria-label="Commission rules">
          <TableHead>
            <TableRow>
              <TableCell>For</TableCell>
              <TableCell>Commission</TableCell>
              <TableCell>Target</TableCell>
              <TableCell>Excluded categories</TableCell>
              {editable && <TableCell />}
            </TableRow>
          </TableHead>
          <TableBody>
            {list.map((r) => (
              <TableRow key={r.id}>
                <TableCell>{r.user_name ?? `Role: ${r.role_title ?? r.role_id}`}</TableCell>
                <TableCell>{describe(r)}</TableCell>
                <TableCell>{r.target ?? "—"}</TableCell>
                <TableCell>
                  {r.excluded_category_ids
                    .map((id) => options.data?.categories.find((c) => Number(c.id) === id)?.name ?? `#${id}`)
                    .join(", ") || "—"}
                </TableCell>
                {editable && (
                  <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                    <IconButton
                      aria-label={`Change the rule for ${r.user_name ?? r.role_title}`}
                      onClick={() => setEditing(r)}
                    >
                      <EditOutlined />
                    </IconButton>
                    <IconButton
                      aria-label={`Delete the rule for ${r.user_name ?? r.role_title}`}
                      onClick={() => setDeleting(r)}
                    >
                      <DeleteOutline />
                    </IconButton>
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {editable && (
        <Button sx={{ mt: 2 }} variant="outlined" onClick={() => setEditing("new")} disabled={!options.data}>
          Add rule
        </Button>
      )}
      {editing && options.data && (
        <RuleDialog
          rule={editing === "new" ? null : editing}
          users={options.data.users}
          categories={options.data.categories}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={Boolean(deleting)}
        title="Delete this commission rule?"
        body={`${deleting?.user_name ?? `Everyone of the role ${deleting?.role_title}`} will earn no commission from this rule (a role's rule applies again to a salesperson whose own rule is deleted). Approved statements stay as they are.`}
        confirmLabel="Delete"
        destructive
        onCancel={() => setDeleting(null)}
        onConfirm={remove}
      />
    </>
  );
}
