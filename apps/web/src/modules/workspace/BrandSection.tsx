import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { BRAND, WORKSPACE_COLORS, workspaceColor } from "@workmetrics/domain";
import { type ChangeEvent, type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { useSession } from "../../app/session/SessionProvider.tsx";
import type { Profile } from "../../app/session/types.ts";
import { Section } from "../account/Section.tsx";
import { useWorkspaceApi } from "./api.ts";

const COLOR_NAMES = ["-", ...Object.keys(WORKSPACE_COLORS)];
const MAX_LOGO = 200 * 1024;

type Ws = Profile["workspace"];

// Name, colours (previewed live before saving) and logo; colours re-theme the app for everyone in the workspace.
export function BrandSection({ workspace }: { workspace: Ws }) {
  const { client } = useSession();
  const { call, refreshUser } = useWorkspaceApi();
  const [name, setName] = useState(workspace.name);
  const [currency, setCurrency] = useState(workspace.base_currency);
  const [primary, setPrimary] = useState(workspace.primary_color ?? "-");
  const [secondary, setSecondary] = useState(workspace.secondary_color ?? "-");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const p = workspaceColor(primary) ?? BRAND.primary;
  const s = workspaceColor(secondary) ?? BRAND.secondary;

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!client) return;
    if (!name.trim()) return setError("The workspace needs a name");
    if (!/^[A-Z]{3}$/.test(currency)) return setError("The base currency is a three-letter code such as SGD");
    setBusy(true);
    setError(null);
    const { error: err } = await client
      .from("workspace")
      .update({
        name: name.trim(),
        base_currency: currency,
        primary_color: primary === "-" ? null : primary,
        secondary_color: secondary === "-" ? null : secondary,
      })
      .eq("id", workspace.id);
    setBusy(false);
    if (err) return setError(err.message);
    toast.success("Workspace saved");
    await refreshUser();
  }

  async function uploadLogo(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (!file) return;
    if (!/^image\/(png|jpeg|webp|svg\+xml)$/.test(file.type)) return toast.error("Use a PNG, JPEG, WebP or SVG image");
    if (file.size > MAX_LOGO) return toast.error("The logo must be at most 200 KB");
    const logo = await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(file);
    });
    await setLogo(logo);
  }

  async function setLogo(logo: string | null) {
    try {
      await call("/api/workspace/logo", { method: "PUT", json: { logo } });
      toast.success(logo ? "Logo updated" : "Logo removed");
      await refreshUser();
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "Could not save the logo");
    }
  }

  const colorSelect = (label: string, value: string, onChange: (v: string) => void) => (
    <TextField select label={label} value={value} onChange={(e) => onChange(e.target.value)} sx={{ minWidth: 180 }}>
      {COLOR_NAMES.map((c) => (
        <MenuItem key={c} value={c}>
          <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
            <Box
              sx={{
                width: 16,
                height: 16,
                borderRadius: "50%",
                border: 1,
                borderColor: "divider",
                bgcolor: workspaceColor(c) ?? "transparent",
              }}
            />
            <span>{c === "-" ? "Brand default" : c}</span>
          </Stack>
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Section title="Name and brand" description="Your colours and logo appear for everyone in the workspace.">
      <Stack component="form" spacing={2.5} onSubmit={save} noValidate aria-label="Name and brand">
        <TextField
          label="Workspace name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={Boolean(error)}
          helperText={error ?? " "}
        />
        <TextField
          label="Base currency"
          value={currency}
          onChange={(e) => setCurrency(e.target.value.toUpperCase().slice(0, 3))}
          helperText="Documents and reports are in this currency (ISO code, e.g. SGD)"
          sx={{ maxWidth: 240 }}
        />
        <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
          {colorSelect("Primary colour", primary, setPrimary)}
          {colorSelect("Secondary colour", secondary, setSecondary)}
        </Stack>
        <Box
          data-testid="brand-preview"
          aria-label="Preview"
          sx={{ border: 1, borderColor: "divider", borderRadius: 1, overflow: "hidden" }}
        >
          <Box sx={{ bgcolor: s, color: "#fff", px: 2, py: 1.5, display: "flex", alignItems: "center", gap: 1 }}>
            {workspace.logo && (
              <Avatar src={workspace.logo} variant="rounded" sx={{ width: 28, height: 28, bgcolor: "#fff" }} />
            )}
            <Typography sx={{ fontWeight: 700 }}>{name || "Your workspace"}</Typography>
          </Box>
          <Box sx={{ p: 2, display: "flex", gap: 1, alignItems: "center" }}>
            <Box
              component="span"
              sx={{ bgcolor: p, color: "#fff", px: 2, py: 0.75, borderRadius: 1, fontWeight: 600, fontSize: 14 }}
            >
              New quotation
            </Box>
            <Typography variant="body2" sx={{ color: p, fontWeight: 600 }}>
              A link in your colour
            </Typography>
          </Box>
        </Box>
        <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
          <Avatar
            src={workspace.logo ?? undefined}
            variant="rounded"
            alt="Workspace logo"
            sx={{ width: 56, height: 56 }}
          >
            {workspace.name.slice(0, 1)}
          </Avatar>
          <Button component="label" variant="outlined">
            Upload logo
            <input
              hidden
              type="file"
              accept="image/png,image/jpeg,image/webp,image/svg+xml"
              onChange={uploadLogo}
              aria-label="Logo file"
            />
          </Button>
          {workspace.logo && (
            <Button color="error" onClick={() => setLogo(null)}>
              Remove
            </Button>
          )}
        </Stack>
        <Stack direction="row">
          <Button type="submit" variant="contained" loading={busy}>
            Save name and colours
          </Button>
        </Stack>
      </Stack>
    </Section>
  );
}
