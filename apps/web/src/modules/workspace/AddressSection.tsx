import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { WorkspaceSlug } from "@workmetrics/domain/schemas/company-signup";
import { useState } from "react";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { ApiError } from "../../platform/api.ts";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import { Section } from "../account/Section.tsx";
import { useWorkspaceApi } from "./api.ts";

// The workspace's address (its sub-domain). Changing it moves everyone: old links stop working.
export function AddressSection({ slug }: { slug: string }) {
  const { call } = useWorkspaceApi();
  const { signOut } = useSession();
  const [value, setValue] = useState(slug);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);

  function review() {
    const parsed = WorkspaceSlug.safeParse(value);
    if (!parsed.success) return setError(parsed.error.issues[0].message);
    if (parsed.data === slug) return setError("That is the current address");
    setError(null);
    setValue(parsed.data);
    setConfirm(true);
  }

  async function change() {
    try {
      const { url } = await call<{ url: string }>("/api/workspace/slug", { method: "POST", json: { slug: value } });
      // Sessions live per host: sign in again at the new address.
      await signOut();
      window.location.assign(`${url}/auth/login`);
    } catch (err) {
      setConfirm(false);
      setError(err instanceof ApiError ? (err.fieldErrors().slug ?? err.message) : "Could not change the address");
    }
  }

  return (
    <Section
      title="Address"
      description={`Your team signs in at ${slug}.${window.location.host.split(".").slice(1).join(".") || window.location.host}.`}
    >
      <Stack spacing={2}>
        <Alert severity="warning">
          Changing the address signs everyone out and breaks bookmarks and links to the old one.
        </Alert>
        <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "flex-start" } }}>
          <TextField
            label="Workspace address"
            value={value}
            onChange={(e) => setValue(e.target.value.toLowerCase())}
            error={Boolean(error)}
            helperText={error ?? " "}
            sx={{ flex: 1 }}
          />
          <Button variant="outlined" onClick={review} sx={{ mt: { sm: 1 } }}>
            Change address
          </Button>
        </Stack>
      </Stack>
      <ConfirmDialog
        open={confirm}
        title={`Move the workspace to ${value}?`}
        body="Everyone, you included, will be signed out and must sign in at the new address. Links to the old address will stop working."
        confirmLabel="Change address"
        destructive
        onCancel={() => setConfirm(false)}
        onConfirm={change}
      />
    </Section>
  );
}
