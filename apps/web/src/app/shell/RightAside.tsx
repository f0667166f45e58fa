import CloseIcon from "@mui/icons-material/Close";
import Box from "@mui/material/Box";
import Drawer from "@mui/material/Drawer";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import { LAYOUT } from "@workmetrics/domain";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";

type Panel = { title: string; content: ReactNode };
type RightAsideApi = { open(panel: Panel): void; close(): void };
const Ctx = createContext<RightAsideApi | null>(null);

// The right aside (spec §9: 440 px) shows a record's details beside the page that listed it.
export function RightAsideProvider({ children }: { children: ReactNode }) {
  const [panel, setPanel] = useState<Panel | null>(null);
  const close = useCallback(() => setPanel(null), []);
  const api = useMemo(() => ({ open: setPanel, close }), [close]);
  return (
    <Ctx.Provider value={api}>
      {children}
      <Drawer
        anchor="right"
        open={panel !== null}
        onClose={close}
        slotProps={{ paper: { sx: { width: { xs: "100%", sm: LAYOUT.rightAside } } } }}
      >
        {panel && (
          <Box role="dialog" aria-label={panel.title} sx={{ display: "flex", flexDirection: "column", height: "100%" }}>
            <Box
              sx={{
                height: LAYOUT.headerHeight,
                px: 2,
                display: "flex",
                alignItems: "center",
                borderBottom: 1,
                borderColor: "divider",
              }}
            >
              <Typography variant="h6" component="h2" sx={{ flex: 1 }} noWrap>
                {panel.title}
              </Typography>
              <IconButton aria-label="Close panel" onClick={close}>
                <CloseIcon />
              </IconButton>
            </Box>
            <Box sx={{ p: 2, overflowY: "auto", flex: 1 }}>{panel.content}</Box>
          </Box>
        )}
      </Drawer>
    </Ctx.Provider>
  );
}

export function useRightAside(): RightAsideApi {
  const ctx = useContext(Ctx);
  if (!ctx) throw new Error("useRightAside outside RightAsideProvider");
  return ctx;
}
