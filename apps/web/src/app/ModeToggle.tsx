import DarkModeOutlined from "@mui/icons-material/DarkModeOutlined";
import LightModeOutlined from "@mui/icons-material/LightModeOutlined";
import IconButton from "@mui/material/IconButton";
import { usePreferences } from "./preferences.tsx";

// The browser's own tooltip (title): MUI's Tooltip brings Popper into the public pages' first bundle.
export function ModeToggle({ color = "inherit" }: { color?: "inherit" | "default" }) {
  const { resolvedMode, toggleMode } = usePreferences();
  const label = resolvedMode === "dark" ? "Switch to light mode" : "Switch to dark mode";
  return (
    <IconButton color={color} onClick={toggleMode} aria-label={label} title={label}>
      {resolvedMode === "dark" ? <LightModeOutlined /> : <DarkModeOutlined />}
    </IconButton>
  );
}
