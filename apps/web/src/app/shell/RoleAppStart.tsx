import LocalShippingOutlined from "@mui/icons-material/LocalShippingOutlined";
import PointOfSaleOutlined from "@mui/icons-material/PointOfSaleOutlined";
import WarehouseOutlined from "@mui/icons-material/WarehouseOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type RoleApp, workspaceHost } from "@workmetrics/domain";
import { useEffect, useState } from "react";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { Logo } from "../Logo.tsx";
import { getConfig } from "../session/client.ts";
import { useSession } from "../session/SessionProvider.tsx";

type Role = Exclude<RoleApp, "main">;

const APPS: Record<Role, { title: string; icon: typeof PointOfSaleOutlined; purpose: string; tasks: string[] }> = {
  driver: {
    title: "Driver app",
    icon: LocalShippingOutlined,
    purpose: "Your deliveries, on your phone.",
    tasks: [
      "Today's delivery orders in route order, with the customer's address and contact",
      "Proof of delivery: the receiver's name, a signature or a photo",
      "Partial deliveries and returns noted at the door",
    ],
  },
  warehouse: {
    title: "Warehouse app",
    icon: WarehouseOutlined,
    purpose: "Stock work at the shelf.",
    tasks: [
      "Pick lists for delivery orders and goods received from suppliers",
      "Transfers between locations and goods returns",
      "Stock on hand by location, found by SKU or name",
    ],
  },
  pos: {
    title: "Point of sale",
    icon: PointOfSaleOutlined,
    purpose: "Counter sales in a few taps.",
    tasks: [
      "Products found by SKU, name or scanner",
      "A sale rung up with GST at 9%, paid by cash or card",
      "A receipt printed or sent, and the sale in the books at once",
    ],
  },
};

// Issue 9: until the role apps are built on the documents engine, a driver, warehouse or POS host shows who is
// signed in and what the app will hold — honestly — instead of the back office.
export default function RoleAppStart({ app }: { app: Role }) {
  const { title, icon: Icon, purpose, tasks } = APPS[app];
  usePageTitle(title);
  const { dbUser, signOut } = useSession();
  const profile = dbUser?.profile;
  const [backOffice, setBackOffice] = useState<string | null>(null);
  useEffect(() => {
    if (!profile) return;
    void getConfig().then(({ baseDomain }) => {
      const port = window.location.port || undefined;
      const host = workspaceHost(profile.workspace.slug, baseDomain ?? "localhost", "main", port);
      setBackOffice(`${window.location.protocol}//${host}/dashboard`);
    });
  }, [profile]);
  return (
    <Box sx={{ minHeight: "100vh", bgcolor: "background.default", p: 2, display: "grid", placeItems: "center" }}>
      <Card variant="outlined" sx={{ maxWidth: 520, width: "100%" }}>
        <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
          <Stack spacing={2.5}>
            <Logo to="/dashboard" />
            <Stack direction="row" spacing={1.5} sx={{ alignItems: "center" }}>
              <Icon color="primary" sx={{ fontSize: 36 }} />
              <Box>
                <Typography variant="h5" component="h1">
                  {title}
                </Typography>
                <Typography color="text.secondary">{purpose}</Typography>
              </Box>
            </Stack>
            <Typography data-testid="role-app-who">
              Signed in as <strong>{profile?.name ?? dbUser?.user.email}</strong>
              {profile ? ` · ${profile.role.title} at ${profile.workspace.name}` : ""}
            </Typography>
            <Box>
              <Typography variant="subtitle2" component="h2" gutterBottom>
                What this app will hold
              </Typography>
              <Box component="ul" sx={{ m: 0, pl: 2.5, color: "text.secondary" }}>
                {tasks.map((t) => (
                  <li key={t}>
                    <Typography variant="body2">{t}</Typography>
                  </li>
                ))}
              </Box>
            </Box>
            <Typography variant="body2" color="text.secondary">
              It opens here with the sales and delivery documents. Until then, what your role may use is in the back
              office.
            </Typography>
            <Stack direction="row" spacing={1}>
              {backOffice && (
                <Button variant="contained" href={backOffice}>
                  Open the back office
                </Button>
              )}
              <Button onClick={() => signOut().then(() => window.location.assign("/auth/login"))}>Sign out</Button>
            </Stack>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
