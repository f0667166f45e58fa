import PersonAddOutlined from "@mui/icons-material/PersonAddOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
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
import Typography from "@mui/material/Typography";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { memberRequirement, ROLE } from "@workmetrics/domain";
import { CATALOG } from "@workmetrics/domain/resources/catalog";
import { useState } from "react";
import toast from "react-hot-toast";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { useCan, useDecision } from "../../platform/resource/access.ts";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { useWorkspaceApi } from "../workspace/api.ts";
import { InviteDialog, type RoleOption } from "./InviteDialog.tsx";

type Member = {
  id: string;
  name: string;
  email: string;
  active: boolean;
  role_id: number;
  workspace_role_id: number | null;
};

// Issue 4 item 8: the team — invite by e-mail, change a role, deactivate (which ends their sessions at once).
export default function UsersPage() {
  usePageTitle("Users");
  const { client, dbUser } = useSession();
  const { call } = useWorkspaceApi();
  const queryClient = useQueryClient();
  // Invitations go through the auth invite flow (user.create); roles and deactivation change users (user.update).
  const mayInvite = useDecision(memberRequirement("user.create", "invite users")).allowed;
  const mayChange = useCan(CATALOG.user)("update");
  const [inviting, setInviting] = useState(false);
  const [target, setTarget] = useState<Member | null>(null);
  const team = useQuery({
    queryKey: ["team"],
    queryFn: async () => {
      const [users, roles] = await Promise.all([
        client!.from("user").select("id,name,email,active,role_id,workspace_role_id").order("name"),
        client!.from("workspace_role").select("id,title,base_role_id").order("title"),
      ]);
      if (users.error) throw users.error;
      if (roles.error) throw roles.error;
      return { users: users.data as Member[], roles: roles.data as RoleOption[] };
    },
    enabled: Boolean(client),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["team"] });

  async function changeRole(m: Member, workspaceRoleId: number) {
    const { error } = await client!.from("user").update({ workspace_role_id: workspaceRoleId }).eq("id", m.id);
    if (error) return toast.error(error.message);
    toast.success(`${m.name}'s role changed`);
    await refresh();
  }

  async function setActive(m: Member, active: boolean) {
    try {
      await call(`/api/workspace/users/${m.id}/${active ? "reactivate" : "deactivate"}`, { method: "POST" });
      toast.success(active ? `${m.name} can sign in again` : `${m.name} is deactivated and signed out`);
      setTarget(null);
      await refresh();
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "Could not change the user");
    }
  }

  return (
    <Stack spacing={3}>
      <Stack direction="row" sx={{ alignItems: "center" }}>
        <Box sx={{ flex: 1 }}>
          <Typography variant="h4" component="h1">
            Users
          </Typography>
          <Typography color="text.secondary">
            {team.data ? `${team.data.users.filter((u) => u.active).length} active` : " "}
          </Typography>
        </Box>
        {mayInvite && (
          <Button
            variant="contained"
            startIcon={<PersonAddOutlined />}
            onClick={() => setInviting(true)}
            disabled={!team.data}
          >
            Invite
          </Button>
        )}
      </Stack>
      {team.isError && <Alert severity="error">{team.error.message}</Alert>}
      {team.isPending ? (
        <Skeleton variant="rounded" height={320} />
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table aria-label="Users">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>E-mail</TableCell>
                <TableCell>Role</TableCell>
                <TableCell>Status</TableCell>
                <TableCell align="right" aria-label="Actions" />
              </TableRow>
            </TableHead>
            <TableBody>
              {team.data?.users.map((m) => {
                const owner = m.role_id === ROLE.Owner;
                const self = m.id === dbUser?.user.id;
                return (
                  <TableRow key={m.id} hover data-testid="user-row">
                    <TableCell>{m.name}</TableCell>
                    <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{m.email}</TableCell>
                    <TableCell>
                      {!mayChange ? (
                        (team.data.roles.find((r) => r.id === m.workspace_role_id)?.title ?? "—")
                      ) : (
                        <TextField
                          select
                          size="small"
                          value={m.workspace_role_id ?? ""}
                          disabled={owner || self}
                          onChange={(e) => changeRole(m, Number(e.target.value))}
                          slotProps={{ htmlInput: { "aria-label": `Role of ${m.name}` } }}
                          sx={{ minWidth: 180 }}
                        >
                          {team.data.roles
                            .filter((r) => owner || r.base_role_id !== ROLE.Owner)
                            .map((r) => (
                              <MenuItem key={r.id} value={r.id}>
                                {r.title}
                              </MenuItem>
                            ))}
                        </TextField>
                      )}
                    </TableCell>
                    <TableCell>
                      {m.active ? (
                        <Chip size="small" color="success" label="Active" />
                      ) : (
                        <Chip size="small" label="Deactivated" />
                      )}
                    </TableCell>
                    <TableCell align="right">
                      {mayChange && !owner && !self && (
                        <Button
                          size="small"
                          color={m.active ? "error" : "primary"}
                          onClick={() => (m.active ? setTarget(m) : setActive(m, true))}
                        >
                          {m.active ? "Deactivate" : "Reactivate"}
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <InviteDialog
        open={inviting}
        roles={team.data?.roles ?? []}
        onClose={() => setInviting(false)}
        onInvited={() => {
          setInviting(false);
          void refresh();
        }}
      />
      <ConfirmDialog
        open={target !== null}
        title={`Deactivate ${target?.name ?? ""}?`}
        body="They are signed out everywhere at once and cannot sign in until you reactivate them. Their records stay."
        confirmLabel="Deactivate"
        destructive
        onCancel={() => setTarget(null)}
        onConfirm={() => (target ? setActive(target, false) : undefined)}
      />
    </Stack>
  );
}
