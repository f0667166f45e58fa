import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { decide } from "@workmetrics/domain";
import type { MarketplaceAccountView } from "@workmetrics/domain/commands/marketplace";
import { MARKETPLACE_ACCESS } from "@workmetrics/domain/resources/marketplace";
import { useState } from "react";
import toast from "react-hot-toast";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { useViewer } from "../../platform/session/viewer.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { useMarketplaceCommand, useMyAccount } from "./api.ts";
import { Failed, Loading, Section, Stars, why } from "./ui.tsx";

// Issue 23 "/dashboard/marketplace-account": the workspace's public seller profile — display name, logo, about,
// categories, delivery areas, minimum order value, payment terms; the UEN is the workspace's own, shown as its
// verified business identity. Published, buyers see it beside every listing; unpublished, the listings are hidden.

const list = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

export default function AccountPage() {
  usePageTitle("Seller profile");
  const account = useMyAccount();
  if (account.isPending) return <Loading label="Loading the seller profile" />;
  if (account.isError) return <Failed error={account.error} />;
  return <AccountForm account={account.data} />;
}

function AccountForm({ account }: { account: MarketplaceAccountView | null }) {
  const { member } = useViewer();
  const workspaceName = useSession().dbUser?.profile?.workspace.name ?? "";
  const may = decide(member, MARKETPLACE_ACCESS.profile).allowed;
  const save = useMarketplaceCommand("marketplace_account_save");
  const [f, setF] = useState({
    display_name: account?.display_name ?? workspaceName,
    about: account?.about ?? "",
    logo_url: account?.logo_url ?? "",
    categories: (account?.categories ?? []).join(", "),
    delivery_areas: (account?.delivery_areas ?? []).join(", "),
    min_order_value: account?.min_order_value ?? "0",
    payment_terms: account?.payment_terms ?? "",
    published: account?.published ?? false,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  const submit = async (published = f.published) => {
    try {
      await save.mutateAsync({
        display_name: f.display_name,
        about: f.about || null,
        logo_url: f.logo_url || null,
        categories: list(f.categories),
        delivery_areas: list(f.delivery_areas),
        min_order_value: f.min_order_value || "0",
        payment_terms: f.payment_terms || null,
        published,
      });
      setF({ ...f, published });
      toast.success(published ? "Your seller profile is published" : "Your seller profile is saved, not published");
    } catch (err) {
      const fields = (err as { fields?: Record<string, string> }).fields ?? {};
      setErrors(fields);
      toast.error(why(err));
    }
  };
  const field = (k: keyof typeof f, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      value={f[k] as string}
      onChange={set(k)}
      disabled={!may}
      error={Boolean(errors[k])}
      helperText={errors[k] ?? (extra.helperText as string | undefined)}
      fullWidth
      {...extra}
    />
  );
  return (
    <Stack spacing={2} sx={{ maxWidth: 880 }}>
      <Typography variant="h5" component="h1">
        Seller profile
      </Typography>
      {!account && (
        <Alert severity="info">
          Sell to every Premium business on Workmetrics: open your seller profile, then publish products on the Listings
          page.
        </Alert>
      )}
      {account && (
        <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
          <Stars rating={account.rating_average} count={account.rating_count} />
          <Typography variant="body2" color="text.secondary">
            {account.listings ?? 0} published listing{account.listings === 1 ? "" : "s"}
            {account.uen ? ` · UEN ${account.uen} (verified from your workspace)` : ""}
          </Typography>
        </Stack>
      )}
      <Section id="profile" title="What buyers see">
        <Stack spacing={2}>
          {field("display_name", "Display name", { required: true })}
          {field("about", "About", { multiline: true, minRows: 3 })}
          {field("logo_url", "Logo address", { helperText: "An https address of your logo image" })}
          {field("categories", "Categories", { helperText: "Separated by commas: Hardware, Tools" })}
          {field("delivery_areas", "Delivery areas", { helperText: "Separated by commas: West, Central" })}
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            {field("min_order_value", "Minimum order value (SGD)", { inputMode: "decimal" })}
            {field("payment_terms", "Payment terms offered", { helperText: "e.g. 30 days from invoice" })}
          </Stack>
          <FormControlLabel
            control={
              <Switch
                checked={f.published}
                disabled={!may}
                onChange={(e) => setF({ ...f, published: e.target.checked })}
              />
            }
            label={
              f.published ? "Published: buyers see your profile and listings" : "Not published: hidden from buyers"
            }
          />
          {may && (
            <Stack direction="row" spacing={1}>
              <Button variant="contained" disabled={save.isPending || !f.display_name.trim()} onClick={() => submit()}>
                {save.isPending ? "Saving…" : "Save"}
              </Button>
            </Stack>
          )}
          {!may && (
            <Alert severity="info">Your role reads the profile; an owner, admin or sales manager keeps it.</Alert>
          )}
        </Stack>
      </Section>
    </Stack>
  );
}
