import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";

// Issue 21 §5: a first `npm start` serves the pages while it writes the demo data (server.ts, seedWhileServing); its
// data answers 503 "seeding" meanwhile. Said here, checked again every few seconds; once written, the page's
// data is asked again.
export function SeedingBanner() {
  const [seeding, setSeeding] = useState(false);
  const queryClient = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let was = false;
    let stopped = false;
    const check = async () => {
      try {
        const res = await fetch("/api/health", { cache: "no-store" });
        // The body is read whatever the status: one left unread keeps its request open (and the page never idle).
        const json = (await res.json().catch(() => null)) as { code?: string } | null;
        const body = res.status === 503 ? json : null;
        if (stopped) return;
        if (body?.code === "seeding") {
          was = true;
          setSeeding(true);
          timer = setTimeout(check, 3000);
        } else if (was) {
          setSeeding(false);
          void queryClient.invalidateQueries();
        }
      } catch {
        // The server is away: the page's own data says so.
      }
    };
    void check();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [queryClient]);
  if (!seeding) return null;
  return (
    <Box
      role="status"
      sx={{ bgcolor: "warning.light", color: "warning.contrastText", px: 2, py: 1, textAlign: "center" }}
    >
      <Typography variant="body2">
        The demo data is still being written — a first start takes about a minute. Prices, case studies and sign-in fill
        in by themselves when it is done.
      </Typography>
    </Box>
  );
}
