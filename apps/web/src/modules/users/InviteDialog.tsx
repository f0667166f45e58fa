import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { ApiError } from "../../platform/api.ts";
import { useWorkspaceApi } from "../workspace/api.ts";

export type RoleOption = { id: number; title: string; base_role_id: number };

// Invites a colleague by e-mail: they get a link to choose a password and land in this workspace.
export function InviteDialog(props: { open: boolean; roles: RoleOption[]; onClose(): void; onInvited(): void }) {
  const { call } = useWorkspaceApi();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [roleId, setRoleId] = useState<number | "">("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      await call("/api/workspace/invitations", {
        method: "POST",
        json: { email, name, workspace_role_id: roleId || 0 },
      });
      toast.success(`Invitation sent to ${email.trim()}`);
      setEmail("");
      setName("");
      setRoleId("");
      props.onInvited();
    } catch (err) {
      if (err instanceof ApiError) setErrors({ ...err.fieldErrors(), form: err.message });
      else setErrors({ form: "Could not send the invitation" });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={props.open} onClose={busy ? undefined : props.onClose} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate aria-label="Invite a colleague">
        <DialogTitle>Invite a colleague</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {errors.form && Object.keys(errors).length === 1 && <Alert severity="error">{errors.form}</Alert>}
            <TextField
              label="Name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={Boolean(errors.name)}
              helperText={errors.name}
              autoFocus
            />
            <TextField
              label="E-mail"
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              error={Boolean(errors.email)}
              helperText={errors.email}
            />
            <TextField
              select
              label="Role"
              value={roleId}
              onChange={(e) => setRoleId(Number(e.target.value))}
              error={Boolean(errors.workspace_role_id)}
              helperText={errors.workspace_role_id}
            >
              {props.roles
                .filter((r) => r.base_role_id !== 31)
                .map((r) => (
                  <MenuItem key={r.id} value={r.id}>
                    {r.title}
                  </MenuItem>
                ))}
            </TextField>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={busy}>
            Send invitation
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
