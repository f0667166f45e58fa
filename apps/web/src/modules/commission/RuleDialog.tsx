import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import { errorMessage, SYSTEM_ROLES } from "@workmetrics/domain";
import { CommissionRuleInput } from "@workmetrics/domain/commission";
import { useState } from "react";
import toast from "react-hot-toast";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import type { Rule } from "./api.ts";

// Add or change one commission rule: for a salesperson or a role, invoiced or collected basis, rate, period,
// optional target with tiers, excluded categories. Validated with the domain's schema before it is sent; the
// server checks again and its message shows beside the field.

type Option = { id: string | number; name: string };
type Tier = { from_percent: string; rate_percent: string };

export function RuleDialog(props: { rule: Rule | null; users: Option[]; categories: Option[]; onClose(): void }) {
  const r = props.rule;
  const data = useDataProvider();
  const qc = useQueryClient();
  const [subject, setSubject] = useState<"user" | "role">(r?.role_id ? "role" : "user");
  const [userId, setUserId] = useState(r?.user_id ?? "");
  const [roleId, setRoleId] = useState(r?.role_id ? String(r.role_id) : "3");
  const [basis, setBasis] = useState(r?.basis ?? "invoiced");
  const [rate, setRate] = useState(r?.rate_percent ?? "");
  const [period, setPeriod] = useState(r?.period ?? "monthly");
  const [target, setTarget] = useState(r?.target ?? "");
  const [tiers, setTiers] = useState<Tier[]>(r?.tiers ?? []);
  const [excluded, setExcluded] = useState<number[]>(r?.excluded_category_ids ?? []);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const save = async () => {
    const value = {
      ...(r ? { id: r.id } : {}),
      user_id: subject === "user" ? userId || null : null,
      role_id: subject === "role" ? Number(roleId) : null,
      basis,
      rate_percent: rate,
      period,
      target: target.trim() || null,
      tiers,
      excluded_category_ids: excluded,
    };
    const parsed = CommissionRuleInput.safeParse(value);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [i.path.join("."), i.message])));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await data.command("commission_rule_save", value);
      toast.success("Commission rule saved");
      await qc.invalidateQueries({ queryKey: ["commission-rules"] });
      await qc.invalidateQueries({ queryKey: ["report", "commission_statement"] });
      props.onClose();
    } catch (err) {
      toast.error(errorMessage(err, "The rule could not be saved"));
    } finally {
      setBusy(false);
    }
  };
  const setTier = (i: number, key: keyof Tier, v: string) =>
    setTiers(tiers.map((t, j) => (j === i ? { ...t, [key]: v } : t)));

  return (
    <Dialog open onClose={busy ? undefined : props.onClose} aria-labelledby="rule-title" fullWidth maxWidth="sm">
      <DialogTitle id="rule-title">{r ? "Change commission rule" : "Add commission rule"}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Stack direction="row" spacing={2}>
            <TextField
              select
              label="For"
              value={subject}
              onChange={(e) => setSubject(e.target.value as "user")}
              sx={{ minWidth: 210 }}
            >
              <MenuItem value="user">A salesperson</MenuItem>
              <MenuItem value="role">Everyone of a role</MenuItem>
            </TextField>
            {subject === "user" ? (
              <TextField
                select
                fullWidth
                label="Salesperson"
                value={userId}
                onChange={(e) => setUserId(e.target.value)}
                error={Boolean(errors.user_id)}
                helperText={errors.user_id ?? "Their own rule wins over their role's"}
              >
                {props.users.map((u) => (
                  <MenuItem key={u.id} value={String(u.id)}>
                    {u.name}
                  </MenuItem>
                ))}
              </TextField>
            ) : (
              <TextField select fullWidth label="Role" value={roleId} onChange={(e) => setRoleId(e.target.value)}>
                {SYSTEM_ROLES.map((x) => (
                  <MenuItem key={x.id} value={String(x.id)}>
                    {x.title}
                  </MenuItem>
                ))}
              </TextField>
            )}
          </Stack>
          <Stack direction="row" spacing={2}>
            <TextField
              select
              fullWidth
              label="Basis"
              value={basis}
              onChange={(e) => setBasis(e.target.value as "invoiced")}
            >
              <MenuItem value="invoiced">Invoiced (on the invoice date)</MenuItem>
              <MenuItem value="collected">Collected (on the receipt date)</MenuItem>
            </TextField>
            <TextField
              select
              label="Period"
              value={period}
              onChange={(e) => setPeriod(e.target.value as "monthly")}
              sx={{ minWidth: 140 }}
            >
              <MenuItem value="monthly">Monthly</MenuItem>
              <MenuItem value="quarterly">Quarterly</MenuItem>
            </TextField>
          </Stack>
          <Stack direction="row" spacing={2}>
            <TextField
              label="Rate %"
              value={rate}
              onChange={(e) => setRate(e.target.value)}
              error={Boolean(errors.rate_percent)}
              helperText={
                errors.rate_percent ??
                (tiers.length ? "With tiers, the tier reached sets the rate" : "Of the net amount")
              }
            />
            <TextField
              label="Target per period"
              value={target}
              onChange={(e) => setTarget(e.target.value)}
              error={Boolean(errors.target)}
              helperText={errors.target ?? "Optional; tiers need it"}
            />
          </Stack>
          <Typography variant="subtitle2">
            Tiers by target achieved (the rate reached applies to the whole base)
          </Typography>
          {tiers.map((t, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: tiers have no id; their order is their identity
            <Stack key={i} direction="row" spacing={2} sx={{ alignItems: "flex-start" }}>
              <TextField
                size="small"
                label="From % of target"
                value={t.from_percent}
                onChange={(e) => setTier(i, "from_percent", e.target.value)}
                error={Boolean(errors[`tiers.${i}.from_percent`])}
                helperText={errors[`tiers.${i}.from_percent`]}
              />
              <TextField
                size="small"
                label="Rate %"
                value={t.rate_percent}
                onChange={(e) => setTier(i, "rate_percent", e.target.value)}
                error={Boolean(errors[`tiers.${i}.rate_percent`])}
                helperText={errors[`tiers.${i}.rate_percent`]}
              />
              <IconButton aria-label={`Remove tier ${i + 1}`} onClick={() => setTiers(tiers.filter((_, j) => j !== i))}>
                <DeleteOutline />
              </IconButton>
            </Stack>
          ))}
          <Button
            sx={{ alignSelf: "flex-start" }}
            onClick={() => setTiers([...tiers, { from_percent: tiers.length ? "" : "0", rate_percent: "" }])}
          >
            Add tier
          </Button>
          <TextField
            select
            label="Categories that earn no commission"
            value={excluded.map(String)}
            onChange={(e) => {
              const v = e.target.value as unknown as string[];
              setExcluded(v.map(Number));
            }}
            slotProps={{ select: { multiple: true } }}
            helperText="Their lines (and their sub-categories') are left out"
          >
            {props.categories.map((c) => (
              <MenuItem key={c.id} value={String(c.id)}>
                {c.name}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" loading={busy} onClick={save}>
          Save rule
        </Button>
      </DialogActions>
    </Dialog>
  );
}
