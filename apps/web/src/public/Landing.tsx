import AccountTreeOutlined from "@mui/icons-material/AccountTreeOutlined";
import ArrowForward from "@mui/icons-material/ArrowForward";
import ChatOutlined from "@mui/icons-material/ChatOutlined";
import Inventory2Outlined from "@mui/icons-material/Inventory2Outlined";
import LocalShippingOutlined from "@mui/icons-material/LocalShippingOutlined";
import ReceiptLongOutlined from "@mui/icons-material/ReceiptLongOutlined";
import ShoppingCartOutlined from "@mui/icons-material/ShoppingCartOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Container from "@mui/material/Container";
import Stack from "@mui/material/Stack";
import { darken, lighten } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import { AppLink } from "../app/links.tsx";
import { usePageTitle } from "../platform/ui/usePageTitle.ts";
import { CaseStudies } from "./CaseStudies.tsx";
import { useLanding } from "./queries.ts";
import { SignInToContinue } from "./SignInToContinue.tsx";
import { TierCards } from "./TierCards.tsx";

const AREAS = [
  {
    icon: ReceiptLongOutlined,
    title: "Quote to cash",
    text: "Quotations become sales orders, delivery orders and invoices in a click, with GST at 9% worked out for you and payments matched to what is owed.",
  },
  {
    icon: ShoppingCartOutlined,
    title: "Purchase to pay",
    text: "Purchase orders, supplier delivery orders and supplier invoices checked three ways, so you only pay for what arrived at the price you agreed.",
  },
  {
    icon: Inventory2Outlined,
    title: "Stock you can trust",
    text: "Warehouses, transfers, goods returns and loans tracked as they happen, so the stock figure on a quotation is the stock on the shelf.",
  },
  {
    icon: AccountTreeOutlined,
    title: "Projects and claims",
    text: "Run projects with their own brands and currency rates, and bill them in stages with progressive claims.",
  },
  {
    icon: ChatOutlined,
    title: "One inbox",
    text: "WhatsApp, Facebook, Instagram and Outlook e-mail in one shared inbox, next to the customer's quotations and orders.",
  },
  {
    icon: LocalShippingOutlined,
    title: "Apps for every role",
    text: "Drivers, warehouse staff and POS counters get their own fast screens on their own addresses, with only what they need.",
  },
];

export default function Landing() {
  usePageTitle("Business management for growing companies");
  const landing = useLanding();
  return (
    <>
      <SignInToContinue />
      {landing.data?.banners.map((b) => (
        <Stack
          key={b.id}
          direction="row"
          spacing={2}
          data-testid="landing-banner"
          sx={(t) => ({
            px: 2,
            py: 1,
            justifyContent: "center",
            alignItems: "center",
            // The colours of MUI's info Alert, without its code on the landing page.
            color: (t.palette.mode === "light" ? darken : lighten)(t.palette.info.light, 0.6),
            bgcolor: (t.palette.mode === "light" ? lighten : darken)(t.palette.info.light, 0.9),
          })}
        >
          <Typography variant="body2">
            <strong>{b.title}</strong>
            {b.body ? ` — ${b.body}` : ""}
          </Typography>
          {b.linkUrl && (
            <Button component={AppLink} to={b.linkUrl} size="small" color="inherit" sx={{ flexShrink: 0 }}>
              {b.linkLabel ?? "Learn more"}
            </Button>
          )}
        </Stack>
      ))}
      <Box
        component="section"
        sx={{
          py: { xs: 6, md: 10 },
          background: (t) => `linear-gradient(160deg, ${t.palette.secondary.main} 0%, ${t.palette.primary.main} 100%)`,
          color: "#fff",
        }}
      >
        <Container maxWidth="lg">
          <Stack spacing={3} sx={{ maxWidth: 760 }}>
            <Typography variant="h2" component="h1" sx={{ fontSize: { xs: 34, sm: 44, md: 56 }, lineHeight: 1.1 }}>
              Run the whole business in one fast, secure app
            </Typography>
            <Typography sx={{ fontSize: { xs: 17, md: 20 }, opacity: 0.92 }}>
              Quote, sell, deliver, invoice, buy, receive, pay and talk to customers — without retyping a line between
              spreadsheets. Workmetrics is built for small and mid-sized companies that are growing fast.
            </Typography>
            <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
              <Button
                component={AppLink}
                to="/book-a-demo"
                size="large"
                variant="contained"
                color="inherit"
                endIcon={<ArrowForward />}
                sx={{ color: "secondary.main", bgcolor: "#fff", "&:hover": { bgcolor: "#e8f4fa" } }}
              >
                Book a demo
              </Button>
              {/* GET /demo is the server's: a sandbox of one's own, signed in (issue 21 §3). */}
              <Button href="/demo" size="large" variant="outlined" color="inherit">
                Try it now, no sign-up
              </Button>
              <Button component={AppLink} to="/pricing" size="large" variant="outlined" color="inherit">
                See pricing
              </Button>
            </Stack>
          </Stack>
        </Container>
      </Box>

      <Container component="section" id="features" maxWidth="lg" sx={{ py: { xs: 6, md: 9 }, scrollMarginTop: 64 }}>
        <Typography variant="h4" component="h2" gutterBottom>
          Everything a trading company does every day
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 4, maxWidth: 720 }}>
          Each document knows where it came from, so every order line shows what was delivered, billed and returned.
        </Typography>
        <Box sx={{ display: "grid", gap: 3, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr", lg: "repeat(3, 1fr)" } }}>
          {AREAS.map(({ icon: Icon, title, text }) => (
            <Box
              key={title}
              sx={{ p: 3, border: 1, borderColor: "divider", borderRadius: 2, bgcolor: "background.paper" }}
            >
              <Icon color="primary" sx={{ fontSize: 32, mb: 1 }} />
              <Typography variant="h6" component="h3" gutterBottom>
                {title}
              </Typography>
              <Typography color="text.secondary">{text}</Typography>
            </Box>
          ))}
        </Box>
      </Container>

      <Box component="section" sx={{ py: { xs: 6, md: 9 }, bgcolor: "action.hover" }}>
        <Container maxWidth="lg">
          <Typography variant="h4" component="h2" gutterBottom>
            Plans that grow with you
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 4 }}>
            Start on Lite and move up when you need projects, warehouses, POS or the marketplace.{" "}
            <AppLink to="/pricing?cycle=yearly">Compare yearly prices</AppLink>.
          </Typography>
          <TierCards cycle="monthly" />
        </Container>
      </Box>

      <CaseStudies studies={landing.data?.caseStudies} loading={landing.isPending} />

      <Container component="section" maxWidth="md" sx={{ py: { xs: 6, md: 9 }, textAlign: "center" }}>
        <Typography variant="h4" component="h2" gutterBottom>
          See it with your own documents
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          In 30 minutes we walk through your quote-to-cash and purchase-to-pay flows and show where the hours go today.
        </Typography>
        <Button component={AppLink} to="/book-a-demo" size="large" variant="contained">
          Book a demo
        </Button>
      </Container>
    </>
  );
}
