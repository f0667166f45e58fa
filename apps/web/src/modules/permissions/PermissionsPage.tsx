import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ROLE } from "@workmetrics/domain";
import { RESOURCES } from "@workmetrics/domain/resources";
import { useEffect, useMemo, useState } from "react";
import toast from "react-hot-toast";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { ACTIONS, actionsOf, expand, grantable, reconcile, toggle, unshown } from "./matrix.ts";

type WorkspaceRole = {
  id: number;
  title: string;
  slug: string;
  base_role_id: number;
  is_system: boolean;
  permissions: string[];
};

// On a phone the matrix scrolls sideways inside its card, the area names staying in view (issue 9 §2).
const AREA = {
  position: "sticky",
  left: 0,
  zIndex: 1,
  bgcolor: "background.paper",
  minWidth: 112,
  borderRight: { xs: 1, sm: 0 },
  borderRightColor: { xs: "divider" },
  overflowWrap: "anywhere",
} as const;
const ACTION = { px: 0.5, minWidth: 60 } as const;
// A document's other actions (Send, Cancel, Approve …) wrap inside one cell rather than widening the table.
const OTHER = { minWidth: 200, py: 0 } as const;

// Issue 4 item 7: a role's permission matrix; the server checks the saved set on the very next request.
export default function PermissionsPage() {
  usePageTitle("Permissions");
  const { client } = useSession();
  const queryClient = useQueryClient();
  const rows = useMemo(() => grantable(RESOURCES), []);
  const roles = useQuery({
    queryKey: ["workspace-roles"],
    queryFn: async () => {
      const { data, error } = await client!
        .from("workspace_role")
        .select("id,title,slug,base_role_id,is_system,permissions")
        .order("title");
      if (error) throw error;
      return data as WorkspaceRole[];
    },
    enabled: Boolean(client),
  });
  const [roleId, setRoleId] = useState<number | null>(null);
  const role = roles.data?.find((r) => r.id === roleId) ?? roles.data?.[0];
  const [granted, setGranted] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (role) setGranted(expand(role.permissions, rows));
  }, [role, rows]);
  const locked = role?.base_role_id === ROLE.Owner;
  const dirty = role ? [...granted].sort().join() !== [...expand(role.permissions, rows)].sort().join() : false;

  async function save() {
    if (!client || !role) return;
    setBusy(true);
    const { error } = await client
      .from("workspace_role")
      // Only what the boxes changed: wildcards, denies and patterns no row shows are saved as they were.
      .update({ permissions: reconcile(role.permissions, granted, rows) })
      .eq("id", role.id);
    setBusy(false);
    if (error) return toast.error(error.message);
    toast.success(`Permissions of ${role.title} saved`);
    await queryClient.invalidateQueries({ queryKey: ["workspace-roles"] });
  }

  return (
    <Stack spacing={3}>
      <Box>
        <Typography variant="h4" component="h1">
          Permissions
        </Typography>
        <Typography color="text.secondary">
          Choose what each role may read, create, change and delete, and which documents it may send, cancel or approve
          below cost. Changes apply to the next request.
        </Typography>
      </Box>
      {roles.isError && <Alert severity="error">{roles.error.message}</Alert>}
      {roles.isPending ? (
        <Skeleton variant="rounded" height={400} />
      ) : (
        <>
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
            <TextField
              select
              label="Role"
              value={role?.id ?? ""}
              onChange={(e) => setRoleId(Number(e.target.value))}
              sx={{ minWidth: 260 }}
            >
              {roles.data?.map((r) => (
                <MenuItem key={r.id} value={r.id}>
                  {r.title}
                  {r.is_system ? "" : " (custom)"}
                </MenuItem>
              ))}
            </TextField>
            <Box sx={{ flex: 1 }} />
            <Button onClick={() => role && setGranted(expand(role.permissions, rows))} disabled={!dirty}>
              Discard changes
            </Button>
            <Button variant="contained" onClick={save} loading={busy} disabled={!dirty || locked}>
              Save permissions
            </Button>
          </Stack>
          {locked && <Alert severity="info">The owner can always do everything.</Alert>}
          <TableContainer component={Paper} variant="outlined" sx={{ maxWidth: "100%", overflowX: "auto" }}>
            <Table size="small" stickyHeader aria-label={`Permissions of ${role?.title ?? "role"}`}>
              <TableHead>
                <TableRow>
                  <TableCell sx={{ ...AREA, zIndex: 3 }}>Area</TableCell>
                  {ACTIONS.map((a) => (
                    <TableCell key={a} align="center" sx={{ ...ACTION, textTransform: "capitalize" }}>
                      {a === "update" ? "Change" : a}
                    </TableCell>
                  ))}
                  <TableCell sx={OTHER}>Other actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((r) => (
                  <TableRow key={r.name} hover>
                    <TableCell component="th" scope="row" sx={AREA}>
                      {r.plural}
                    </TableCell>
                    {ACTIONS.map((a) => {
                      const offered = actionsOf(r).includes(a);
                      const key = `${r.name}.${a}`;
                      return (
                        <TableCell key={a} align="center" padding="checkbox" sx={ACTION}>
                          {offered && (
                            <Checkbox
                              size="small"
                              checked={granted.has(key)}
                              disabled={locked}
                              onChange={() => setGranted((g) => toggle(g, r.name, a))}
                              slotProps={{ input: { "aria-label": `${r.plural}: ${a}` } }}
                            />
                          )}
                        </TableCell>
                      );
                    })}
                    <TableCell sx={OTHER}>
                      {r.other && (
                        <Stack direction="row" sx={{ flexWrap: "wrap", columnGap: 1.5 }}>
                          {r.other.map((o) => {
                            const box = (
                              <FormControlLabel
                                key={o.action}
                                label={o.label}
                                sx={{ mr: 0 }}
                                slotProps={{ typography: { variant: "body2" } }}
                                control={
                                  <Checkbox
                                    size="small"
                                    checked={granted.has(`${r.name}.${o.action}`)}
                                    disabled={locked}
                                    onChange={() => setGranted((g) => toggle(g, r.name, o.action))}
                                    slotProps={{ input: { "aria-label": `${r.plural}: ${o.label.toLowerCase()}` } }}
                                  />
                                }
                              />
                            );
                            return o.help ? (
                              <Tooltip key={o.action} title={o.help}>
                                {box}
                              </Tooltip>
                            ) : (
                              box
                            );
                          })}
                        </Stack>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {role && unshown(role.permissions, rows).length > 0 && (
            <Typography variant="body2" color="text.secondary" data-testid="unshown-patterns">
              This role also holds {unshown(role.permissions, rows).join(", ")}, which no box shows; saving keeps them.
            </Typography>
          )}
        </>
      )}
    </Stack>
  );
}
