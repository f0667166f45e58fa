import SearchIcon from "@mui/icons-material/Search";
import Box from "@mui/material/Box";
import ButtonBase from "@mui/material/ButtonBase";
import { lazy, Suspense, useEffect, useState } from "react";
import { useLocation } from "react-router";
import { useSession } from "../session/SessionProvider.tsx";
import { pushRecent, readRecent, recordAt, storageKey, writeRecent } from "./nav.ts";

// The command palette (issue 21 §1): its code loads the first time it is opened (or the button is pointed at), so
// neither the landing page nor the dashboard's first paint carries it.
const loadPalette = () => import("./palette/CommandPalette.tsx");
const CommandPalette = lazy(loadPalette);

const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

// The record pages opened lately (a document, a company), kept per workspace and user for the palette's Recent.
function useRecordRecent(base: string, key: string): void {
  const { pathname } = useLocation();
  useEffect(() => {
    const record = recordAt(pathname, base);
    if (record) writeRecent(key, pushRecent(readRecent(key), { ...record, at: Date.now() }));
  }, [pathname, base, key]);
}

export function PaletteLauncher({ base }: { base: string }) {
  const { dbUser } = useSession();
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false); // mounted once opened, so it keeps its state between openings
  const recentKey = storageKey("recent", dbUser?.profile?.workspace_id, dbUser?.user.id);
  useRecordRecent(base, recentKey);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "k") {
        e.preventDefault();
        setWanted(true);
        setOpen((o) => !o);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <>
      <ButtonBase
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
        onPointerEnter={() => void loadPalette().catch(() => undefined)}
        onFocus={() => void loadPalette().catch(() => undefined)}
        aria-label="Quick search"
        aria-keyshortcuts={isMac ? "Meta+K" : "Control+K"}
        aria-haspopup="dialog"
        sx={{
          gap: 1,
          px: { xs: 1, sm: 1.5 },
          height: 40,
          minWidth: 40,
          borderRadius: 2,
          border: 1,
          borderColor: "divider",
          color: "text.secondary",
          justifyContent: "flex-start",
          width: { sm: 220 },
          "&:hover": { bgcolor: "action.hover" },
        }}
      >
        <SearchIcon fontSize="small" />
        <Box component="span" sx={{ display: { xs: "none", sm: "inline" }, flex: 1, textAlign: "left" }}>
          Search…
        </Box>
        <Box
          component="kbd"
          sx={{
            display: { xs: "none", sm: "inline" },
            fontFamily: "inherit",
            fontSize: 12,
            px: 0.75,
            borderRadius: 1,
            border: 1,
            borderColor: "divider",
          }}
        >
          {isMac ? "⌘K" : "Ctrl K"}
        </Box>
      </ButtonBase>
      {wanted && (
        <Suspense fallback={null}>
          <CommandPalette open={open} onClose={() => setOpen(false)} base={base} recentKey={recentKey} />
        </Suspense>
      )}
    </>
  );
}
