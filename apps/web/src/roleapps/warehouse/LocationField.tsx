import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { useState } from "react";
import { findLocation, type Location } from "./data.ts";

// A location chosen by scanning its code label (a wedge scanner types the code and Enter into the box) or typing it,
// or from the list.
export function LocationField({
  label,
  locations,
  value,
  onChange,
  scanPrompt,
}: {
  label: string;
  scanPrompt?: string;
  locations: readonly Location[];
  value: number | null;
  onChange(id: number | null): void;
}) {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const take = () => {
    if (!code.trim()) return;
    const found = findLocation(locations, code);
    if (found) {
      onChange(found.id);
      setCode("");
      setError(null);
    } else setError(`No location has the code “${code.trim()}”`);
  };
  return (
    <Stack spacing={1}>
      <TextField
        select
        fullWidth
        label={label}
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value === "" ? null : Number(e.target.value))}
      >
        {locations.map((l) => (
          <MenuItem key={l.id} value={l.id} sx={{ minHeight: 48 }}>
            {l.name} ({l.code})
          </MenuItem>
        ))}
      </TextField>
      <TextField
        fullWidth
        size="small"
        placeholder={scanPrompt ?? `Scan the ${label.toLowerCase()}'s code`}
        value={code}
        error={!!error}
        helperText={error ?? " "}
        onChange={(e) => setCode(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            e.stopPropagation();
            take();
          }
        }}
        onBlur={take}
        slotProps={{ htmlInput: { "aria-label": `${label} code` } }}
      />
    </Stack>
  );
}
