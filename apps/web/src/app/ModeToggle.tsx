import DarkModeOutlined from "@mui/icons-material/DarkModeOutlined";
import LightModeOutlined from "@mui/icons-material/LightModeOutlined";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import { usePreferences } from "./preferences.tsx";

export function ModeToggle({ color = "inherit" }: { color?: "inherit" | "default" }) {
  const { resolvedMode, toggleMode } = usePreferences();
  const label = resolvedMode === "dark" ? "Switch to light mode" : "Switch to dark mode";
  return (
    <Tooltip title={label}>
      <IconButton color={color} onClick={toggleMode} aria-label={label}>
        {resolvedMode === "dark" ? <LightModeOutlined /> : <DarkModeOutlined />}
      </IconButton>
    </Tooltip>
  );
}
