import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { apiFetch } from "../../platform/api.ts";
import { Section } from "./Section.tsx";

export function ProfileCard() {
  const { dbUser, session } = useSession();
  const queryClient = useQueryClient();
  const [name, setName] = useState(dbUser?.profile?.name ?? "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) return setError("Your name is required");
    setBusy(true);
    setError(null);
    try {
      await apiFetch("/api/account/profile", {
        method: "PATCH",
        json: { name: name.trim() },
        headers: { authorization: `Bearer ${session?.access_token}` },
      });
      await queryClient.invalidateQueries({ queryKey: ["db-user"] });
      toast.success("Profile saved");
    } catch (err) {
      setError(err instanceof Error ? err.message : "Could not save your profile");
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title="Profile" description="How your name appears to colleagues and on documents you prepare.">
      <Stack
        component="form"
        direction={{ xs: "column", sm: "row" }}
        spacing={2}
        onSubmit={save}
        noValidate
        sx={{ alignItems: { sm: "flex-start" } }}
      >
        <TextField
          label="Full name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={Boolean(error)}
          helperText={error ?? " "}
          sx={{ flex: 1 }}
        />
        <Button type="submit" variant="contained" loading={busy} sx={{ mt: { sm: 1 } }}>
          Save
        </Button>
      </Stack>
    </Section>
  );
}
