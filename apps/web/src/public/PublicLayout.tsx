import MenuIcon from "@mui/icons-material/Menu";
import AppBar from "@mui/material/AppBar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Container from "@mui/material/Container";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Toolbar from "@mui/material/Toolbar";
import Typography from "@mui/material/Typography";
import { AUTH_ROUTES, LAYOUT } from "@workmetrics/domain";
import { lazy, type ReactNode, Suspense, useState } from "react";
import { FullScreenSpinner } from "../app/FullScreenSpinner.tsx";
import { Logo } from "../app/Logo.tsx";
import { AppLink, useAppSearchParams } from "../app/links.tsx";
import { ModeToggle } from "../app/ModeToggle.tsx";
import type { MenuLink } from "./MobileMenu.tsx";
import { SeedingBanner } from "./SeedingBanner.tsx";

const MobileMenu = lazy(() => import("./MobileMenu.tsx"));

const LINKS: MenuLink[] = [
  { to: "/#features", label: "Features" },
  { to: "/pricing", label: "Pricing" },
  { to: "/book-a-demo", label: "Book a demo" },
];
const SIGN_IN: MenuLink = { to: AUTH_ROUTES.login, label: "Sign in" };

// On a page reached by a redirect (/?redirectedFrom=/dashboard/…), signing in from the header returns there too
// (issue 21 §1: the header's link dropped it). The login page checks the address is one of ours.
function useSignIn(): MenuLink {
  const params = useAppSearchParams();
  const from = params.get("redirectedFrom");
  return from ? { ...SIGN_IN, to: `${SIGN_IN.to}?redirectedFrom=${encodeURIComponent(from)}` } : SIGN_IN;
}

// The marketing pages' frame: the header, the page, the footer. Under the router the page is its Outlet; the landing
// page opened without the router (main.tsx) is given as children. Links go through AppLink (app/links.tsx).
export function PublicLayout({ children }: { children: ReactNode }) {
  const signIn = useSignIn();
  const [open, setOpen] = useState(false);
  // The drawer's code loads on the first tap and stays mounted after, so it can slide out again.
  const [menuWanted, setMenuWanted] = useState(false);
  return (
    <Box sx={{ minHeight: "100vh", display: "flex", flexDirection: "column" }}>
      <a href="#main" className="skip-link" style={{ position: "absolute", left: -9999 }}>
        Skip to content
      </a>
      <AppBar
        position="sticky"
        color="inherit"
        sx={{ borderBottom: 1, borderColor: "divider", bgcolor: "background.paper" }}
      >
        <Container maxWidth="lg">
          <Toolbar disableGutters sx={{ minHeight: LAYOUT.headerHeight, gap: { xs: 1, sm: 2 } }}>
            <Logo />
            <Box sx={{ flex: 1 }} />
            <Stack
              component="nav"
              aria-label="Main"
              direction="row"
              spacing={1}
              sx={{ display: { xs: "none", md: "flex" } }}
            >
              {LINKS.map((l) => (
                <Button key={l.to} component={AppLink} to={l.to} color="inherit">
                  {l.label}
                </Button>
              ))}
            </Stack>
            <ModeToggle />
            {/* A returning customer's way in, at every width. */}
            <Button component={AppLink} to={signIn.to} color="inherit" sx={{ flexShrink: 0 }}>
              {signIn.label}
            </Button>
            <Button
              component={AppLink}
              to="/book-a-demo"
              variant="contained"
              sx={{ display: { xs: "none", sm: "inline-flex" } }}
            >
              Get started
            </Button>
            <IconButton
              aria-label="Open menu"
              onClick={() => {
                setMenuWanted(true);
                setOpen(true);
              }}
              sx={{ display: { md: "none" } }}
            >
              <MenuIcon />
            </IconButton>
          </Toolbar>
        </Container>
      </AppBar>
      <SeedingBanner />
      {menuWanted && (
        <Suspense fallback={null}>
          <MobileMenu links={[...LINKS, signIn]} open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
      <Box component="main" id="main" sx={{ flex: 1 }}>
        <Suspense fallback={<FullScreenSpinner />}>{children}</Suspense>
      </Box>
      <Footer />
    </Box>
  );
}

function Footer() {
  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: "divider", py: 4, bgcolor: "background.paper" }}>
      <Container maxWidth="lg">
        <Stack
          direction={{ xs: "column", sm: "row" }}
          spacing={2}
          sx={{ justifyContent: "space-between", alignItems: { sm: "center" } }}
        >
          <Typography variant="body2" color="text.secondary">
            © {new Date().getFullYear()} Workmetrics. Built in Singapore for growing companies.
          </Typography>
          <Stack direction="row" spacing={2} component="nav" aria-label="Footer">
            <Button size="small" component={AppLink} to="/pricing" color="inherit">
              Pricing
            </Button>
            <Button size="small" component={AppLink} to="/book-a-demo" color="inherit">
              Book a demo
            </Button>
            <Button size="small" component={AppLink} to="/privacy" color="inherit">
              Privacy
            </Button>
          </Stack>
        </Stack>
      </Container>
    </Box>
  );
}
