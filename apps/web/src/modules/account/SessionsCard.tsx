import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import toast from "react-hot-toast";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { apiFetch } from "../../platform/api.ts";
import { formatDateTime } from "../../platform/fields/format.ts";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import { Section } from "./Section.tsx";

export type ActiveSession = {
  id: string;
  current: boolean;
  device: string;
  ip: string | null;
  created_at: string;
  last_used_at: string;
};

const when = (iso: string) => formatDateTime(iso);

export function SessionsCard() {
  const { session, signOut } = useSession();
  const queryClient = useQueryClient();
  const auth = { authorization: `Bearer ${session?.access_token}` };
  const sessions = useQuery({
    queryKey: ["account-sessions", session?.user.id],
    queryFn: () => apiFetch<ActiveSession[]>("/api/account/sessions", { headers: auth }),
    enabled: Boolean(session),
  });
  const [target, setTarget] = useState<ActiveSession | null>(null);

  async function end(s: ActiveSession) {
    try {
      await apiFetch(`/api/account/sessions/${s.id}`, { method: "DELETE", headers: auth });
      setTarget(null);
      if (s.current) return void (await signOut().then(() => window.location.assign("/auth/login")));
      toast.success("Signed out of that session");
      await queryClient.invalidateQueries({ queryKey: ["account-sessions"] });
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "Could not end that session");
    }
  }

  return (
    <Section
      title="Where you're signed in"
      description="End any session you don't recognise; it is signed out at once."
    >
      {sessions.isError && <Alert severity="error">{sessions.error.message}</Alert>}
      {sessions.isPending ? (
        <Skeleton variant="rounded" height={120} />
      ) : (
        <Table size="small" aria-label="Active sessions">
          <TableHead>
            <TableRow>
              <TableCell>Device</TableCell>
              <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>IP address</TableCell>
              <TableCell>Last used</TableCell>
              <TableCell align="right" aria-label="Actions" />
            </TableRow>
          </TableHead>
          <TableBody>
            {sessions.data?.map((s) => (
              <TableRow key={s.id} data-testid="session-row">
                <TableCell>
                  <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                    <span>{s.device}</span>
                    {s.current && <Chip size="small" color="primary" label="This device" />}
                  </Stack>
                </TableCell>
                <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{s.ip ?? "—"}</TableCell>
                <TableCell>{when(s.last_used_at)}</TableCell>
                <TableCell align="right">
                  <Button size="small" color="error" onClick={() => setTarget(s)}>
                    Sign out
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <ConfirmDialog
        open={target !== null}
        title={target?.current ? "Sign out of this device?" : "Sign out of that session?"}
        body={target ? `${target.device}, last used ${when(target.last_used_at)}.` : ""}
        confirmLabel="Sign out"
        destructive
        onCancel={() => setTarget(null)}
        onConfirm={() => (target ? end(target) : undefined)}
      />
    </Section>
  );
}
