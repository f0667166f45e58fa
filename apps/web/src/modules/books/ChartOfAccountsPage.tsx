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
import FormControlLabel from "@mui/material/FormControlLabel";
import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { CommandArgs } from "@workmetrics/domain/commands";
import { ACCOUNT_ROOTS } from "@workmetrics/domain/db/ledger-schema";
import { type AccountRoot, BOOKS_ACCESS, rootOfCode, TYPES_BY_ROOT } from "@workmetrics/domain/resources/books";
import { useState } from "react";
import toast from "react-hot-toast";
import { Link as RouterLink } from "react-router";
import { DateField } from "../../platform/fields/DateField.tsx";
import { formatCents, formatDate } from "../../platform/fields/format.ts";
import { useDecision } from "../../platform/resource/access.ts";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { type AccountRow, naturalBalance, ROOT_TITLES, useBooksCommand, useChart } from "./api.ts";

// Issue 12 "Chart of accounts" (/dashboard/chart-of-accounts): the workspace's accounts by root with each balance as
// of a day (on its natural side: assets and expenses as debits, the rest as credits), opening the journal of one;
// finance adds accounts, renames them and deactivates the ones nothing needs (the server refuses one with a balance
// or one the posting rules use, saying which).

const rootOf = (code: string): AccountRoot | null => (/^\d/.test(code) ? rootOfCode(code) : null);

export default function ChartOfAccountsPage() {
  usePageTitle("Chart of accounts");
  const [asOf, setAsOf] = useState(() => new Date().toISOString().slice(0, 10));
  const [showInactive, setShowInactive] = useState(false);
  const chart = useChart(asOf);
  useErrorToast(chart.error);
  const mayCreate = useDecision(BOOKS_ACCESS.createAccount).allowed;
  const mayUpdate = useDecision(BOOKS_ACCESS.updateAccount).allowed;
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<AccountRow | null>(null);
  const [toggling, setToggling] = useState<AccountRow | null>(null);
  const update = useBooksCommand("account_update");
  const base = useDashboardBase();
  const inUse = new Set(chart.data?.in_use ?? []);
  const accounts = (chart.data?.accounts ?? []).filter((a) => showInactive || a.active);

  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography variant="h4" component="h1">
            Chart of accounts
          </Typography>
          <Typography color="text.secondary">
            Every account of the books and its balance on {formatDate(asOf)}
          </Typography>
        </Box>
        {mayCreate && (
          <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setAdding(true)}>
            Add account
          </Button>
        )}
      </Stack>
      <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
        <DateField
          size="small"
          fullWidth={false}
          label="Balances as of"
          value={asOf}
          onChange={(v) => v && setAsOf(v)}
        />
        <FormControlLabel
          control={<Switch checked={showInactive} onChange={(e) => setShowInactive(e.target.checked)} />}
          label="Show inactive"
        />
      </Stack>
      {!chart.data ? (
        <Card variant="outlined" sx={{ p: 2 }} aria-busy="true" aria-label="Loading the chart of accounts">
          {[0, 1, 2, 3, 4].map((i) => (
            <Skeleton key={i} height={36} />
          ))}
        </Card>
      ) : (
        ACCOUNT_ROOTS.map((root) => {
          const rows = accounts.filter((a) => a.root === root);
          const total = rows.reduce((s, a) => s + naturalBalance(a), 0);
          return (
            <Card variant="outlined" key={root}>
              <Table size="small" aria-label={ROOT_TITLES[root]}>
                <TableHead>
                  <TableRow>
                    <TableCell sx={{ width: 90 }}>
                      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
                        {ROOT_TITLES[root]}
                      </Typography>
                    </TableCell>
                    <TableCell>Name</TableCell>
                    <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>Type</TableCell>
                    <TableCell align="right">Balance</TableCell>
                    {mayUpdate && <TableCell align="right" sx={{ width: 200 }} />}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.length === 0 && (
                    <TableRow>
                      <TableCell colSpan={5}>
                        <Typography color="text.secondary">No {showInactive ? "" : "active "}accounts</Typography>
                      </TableCell>
                    </TableRow>
                  )}
                  {rows.map((a) => (
                    <TableRow key={a.code} sx={{ opacity: a.active ? 1 : 0.6 }}>
                      <TableCell>{a.code}</TableCell>
                      <TableCell>
                        <Link component={RouterLink} to={`${base}/journal?account=${a.code}`}>
                          {a.name}
                        </Link>
                        {!a.active && <Chip size="small" label="Inactive" sx={{ ml: 1 }} />}
                        {a.contra && <Chip size="small" label="Contra" variant="outlined" sx={{ ml: 1 }} />}
                      </TableCell>
                      <TableCell sx={{ display: { xs: "none", sm: "table-cell" }, textTransform: "capitalize" }}>
                        {a.type}
                      </TableCell>
                      <TableCell align="right">{formatCents(naturalBalance(a))}</TableCell>
                      {mayUpdate && (
                        <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                          <Button size="small" onClick={() => setRenaming(a)} aria-label={`Rename ${a.code}`}>
                            Rename
                          </Button>
                          {a.active && inUse.has(a.code) ? (
                            <Tooltip title="The posting rules use this account">
                              <span>
                                <Button size="small" disabled>
                                  Deactivate
                                </Button>
                              </span>
                            </Tooltip>
                          ) : (
                            <Button
                              size="small"
                              color={a.active ? "error" : "primary"}
                              onClick={() => setToggling(a)}
                              aria-label={`${a.active ? "Deactivate" : "Activate"} ${a.code}`}
                            >
                              {a.active ? "Deactivate" : "Activate"}
                            </Button>
                          )}
                        </TableCell>
                      )}
                    </TableRow>
                  ))}
                  <TableRow>
                    <TableCell colSpan={3}>
                      <Typography sx={{ fontWeight: 600 }}>Total {ROOT_TITLES[root].toLowerCase()}</Typography>
                    </TableCell>
                    <TableCell align="right">
                      <Typography sx={{ fontWeight: 600 }}>{formatCents(total)}</Typography>
                    </TableCell>
                    {mayUpdate && <TableCell />}
                  </TableRow>
                </TableBody>
              </Table>
            </Card>
          );
        })
      )}
      {adding && <AddAccountDialog onClose={() => setAdding(false)} />}
      {renaming && <RenameDialog account={renaming} onClose={() => setRenaming(null)} />}
      {toggling && (
        <ConfirmDialog
          open
          title={`${toggling.active ? "Deactivate" : "Activate"} ${toggling.code} ${toggling.name}?`}
          body={
            toggling.active
              ? "Nothing can be posted to an inactive account; its history stays in the books."
              : "The account can be posted to again."
          }
          confirmLabel={toggling.active ? "Deactivate" : "Activate"}
          destructive={toggling.active}
          onCancel={() => setToggling(null)}
          onConfirm={async () => {
            try {
              await update.mutateAsync({ id: toggling.id, active: !toggling.active });
              toast.success(`${toggling.code} ${toggling.active ? "deactivated" : "activated"}`);
              setToggling(null);
            } catch (err) {
              toast.error(err instanceof Error ? err.message : "The account could not be changed");
            }
          }}
        />
      )}
    </Stack>
  );
}

function AddAccountDialog({ onClose }: { onClose(): void }) {
  const create = useBooksCommand("account_create");
  const [code, setCode] = useState("");
  const [name, setName] = useState("");
  const [type, setType] = useState("");
  const [error, setError] = useState<string | null>(null);
  const root = rootOf(code.trim());
  const types: readonly string[] = root ? TYPES_BY_ROOT[root] : [];
  const chosen = types.includes(type) ? type : (types[0] ?? "");
  return (
    <Dialog open onClose={create.isPending ? undefined : onClose} aria-labelledby="add-account" fullWidth maxWidth="xs">
      <DialogTitle id="add-account">Add account</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label="Code"
            required
            value={code}
            onChange={(e) => setCode(e.target.value)}
            helperText={
              root
                ? `${ROOT_TITLES[root]} (codes starting ${code.trim()[0]})`
                : "1 assets, 2 liabilities, 3 equity, 4 income, 5–9 expenses"
            }
            autoFocus
          />
          <TextField label="Name" required value={name} onChange={(e) => setName(e.target.value)} />
          <TextField select label="Type" value={chosen} onChange={(e) => setType(e.target.value)} disabled={!root}>
            {types.map((t) => (
              <MenuItem key={t} value={t} sx={{ textTransform: "capitalize" }}>
                {t}
              </MenuItem>
            ))}
          </TextField>
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={create.isPending}>
          Cancel
        </Button>
        <Button
          variant="contained"
          loading={create.isPending}
          disabled={!code.trim() || !name.trim() || !chosen}
          onClick={async () => {
            try {
              // The server checks the type against the code's root; the picker offers only those.
              const picked = chosen as CommandArgs<"account_create">["type"];
              const a = await create.mutateAsync({ code: code.trim(), name: name.trim(), type: picked });
              toast.success(`${a.code} ${a.name} added`);
              onClose();
            } catch (err) {
              setError(err instanceof Error ? err.message : "The account could not be added");
            }
          }}
        >
          Add
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function RenameDialog({ account, onClose }: { account: AccountRow; onClose(): void }) {
  const update = useBooksCommand("account_update");
  const [name, setName] = useState(account.name);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog
      open
      onClose={update.isPending ? undefined : onClose}
      aria-labelledby="rename-account"
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id="rename-account">Rename {account.code}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField label="Name" required value={name} onChange={(e) => setName(e.target.value)} autoFocus />
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={update.isPending}>
          Cancel
        </Button>
        <Button
          variant="contained"
          loading={update.isPending}
          disabled={!name.trim() || name.trim() === account.name}
          onClick={async () => {
            try {
              await update.mutateAsync({ id: account.id, name: name.trim() });
              toast.success(`${account.code} renamed`);
              onClose();
            } catch (err) {
              setError(err instanceof Error ? err.message : "The account could not be renamed");
            }
          }}
        >
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
