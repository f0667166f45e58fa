import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { Link as RouterLink, useLocation } from "react-router";

export default function NotFound() {
  const { pathname } = useLocation();
  return (
    <Box component="main" sx={{ minHeight: "100vh", display: "grid", placeItems: "center", p: 3, textAlign: "center" }}>
      <Box sx={{ maxWidth: 480 }}>
        <Typography variant="overline" color="primary" sx={{ fontWeight: 700, letterSpacing: 2 }}>
          404
        </Typography>
        <Typography variant="h4" component="h1" gutterBottom>
          We can't find that page
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {/* Only the address may break anywhere: the sentence breaks between words (it broke "ha/ve"). */}
          Nothing lives at{" "}
          <Box component="code" sx={{ wordBreak: "break-all" }}>
            {pathname}
          </Box>
          . It may have moved, or the link may be mistyped.
        </Typography>
        <Button variant="contained" component={RouterLink} to="/">
          Back to the home page
        </Button>
      </Box>
    </Box>
  );
}
