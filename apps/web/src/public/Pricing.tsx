import Box from "@mui/material/Box";
import Container from "@mui/material/Container";
import Stack from "@mui/material/Stack";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { useSearchParams } from "react-router";
import { usePageTitle } from "../platform/ui/usePageTitle.ts";
import { type Cycle, TierCards } from "./TierCards.tsx";

const FAQ = [
  {
    q: "What counts as a user?",
    a: "Anyone who signs in to your workspace: staff, drivers, warehouse and POS staff, and supplier logins. Customers who only receive quotations and invoices are free.",
  },
  {
    q: "Can I change plans later?",
    a: "Yes. Upgrades take effect at once; a downgrade applies from your next billing period, and nothing you have entered is deleted.",
  },
  {
    q: "Are prices inclusive of GST?",
    a: "Prices are in Singapore dollars and exclude GST, which is added at 9% on your invoice.",
  },
  {
    q: "How long does it take to start?",
    a: "Minutes. Create a workspace, import your products and customers from CSV, invite your team, and send your first quotation the same day.",
  },
];

export default function Pricing() {
  usePageTitle("Pricing");
  const [params, setParams] = useSearchParams();
  const cycle: Cycle = params.get("cycle") === "yearly" ? "yearly" : "monthly";
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 5, md: 8 } }}>
      <Stack spacing={2} sx={{ textAlign: "center", alignItems: "center", mb: 5 }}>
        <Typography variant="h3" component="h1">
          Simple pricing per workspace
        </Typography>
        <Typography color="text.secondary" sx={{ maxWidth: 640 }}>
          One price for your whole company within the plan's user range. Pay monthly, or yearly and save on Lite and
          Pro.
        </Typography>
        <ToggleButtonGroup
          exclusive
          value={cycle}
          color="primary"
          aria-label="Billing cycle"
          onChange={(_e, value: Cycle | null) =>
            value && setParams(value === "yearly" ? { cycle: "yearly" } : {}, { replace: true })
          }
        >
          <ToggleButton value="monthly">Monthly</ToggleButton>
          <ToggleButton value="yearly">Yearly</ToggleButton>
        </ToggleButtonGroup>
      </Stack>
      <TierCards cycle={cycle} />
      <Box component="section" aria-labelledby="faq" sx={{ mt: 8, maxWidth: 800, mx: "auto" }}>
        <Typography id="faq" variant="h5" component="h2" gutterBottom>
          Questions people ask
        </Typography>
        {FAQ.map((f) => (
          <Box key={f.q} sx={{ py: 2, borderBottom: 1, borderColor: "divider" }}>
            <Typography sx={{ fontWeight: 600 }}>{f.q}</Typography>
            <Typography color="text.secondary">{f.a}</Typography>
          </Box>
        ))}
      </Box>
    </Container>
  );
}
