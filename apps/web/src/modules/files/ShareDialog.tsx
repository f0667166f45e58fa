import ContentCopyOutlined from "@mui/icons-material/ContentCopyOutlined";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import TextField from "@mui/material/TextField";
import type { SupabaseClient } from "@supabase/supabase-js";
import { SHARE_EXPIRIES } from "@workmetrics/domain";
import { useState } from "react";
import toast from "react-hot-toast";
import { type Entry, messageOf, signedUrl } from "./files-api.ts";

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

// A signed link anyone can open until it expires; it is copied to the clipboard and shown to copy again.
export function ShareDialog(props: { client: SupabaseClient; entry: Entry; onClose(): void }) {
  const [seconds, setSeconds] = useState<number>(SHARE_EXPIRIES[1].seconds);
  const [link, setLink] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const label = SHARE_EXPIRIES.find((e) => e.seconds === seconds)?.label ?? "";

  async function create() {
    setBusy(true);
    try {
      const url = await signedUrl(props.client, props.entry.path, seconds);
      setLink(url);
      if (await copy(url)) toast.success(`Link copied. It expires in ${label}.`);
      else toast("Copy the link below to share it.");
    } catch (err) {
      toast.error(messageOf(err, "Could not create a share link"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm">
      <DialogTitle>Share “{props.entry.name}”</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 1 }}>
          Anyone with the link can download this file until it expires. No sign-in needed.
        </DialogContentText>
        <RadioGroup
          row
          aria-label="Link expires after"
          value={String(seconds)}
          onChange={(e) => {
            setSeconds(Number(e.target.value));
            setLink(null);
          }}
        >
          {SHARE_EXPIRIES.map((e) => (
            <FormControlLabel key={e.seconds} value={String(e.seconds)} control={<Radio />} label={e.label} />
          ))}
        </RadioGroup>
        {link && (
          <TextField
            fullWidth
            margin="normal"
            label={`Share link (expires in ${label})`}
            value={link}
            slotProps={{
              htmlInput: { readOnly: true, onFocus: (e: { target: HTMLInputElement }) => e.target.select() },
              input: {
                endAdornment: (
                  <InputAdornment position="end">
                    <IconButton
                      aria-label="Copy link"
                      onClick={async () =>
                        (await copy(link)) ? toast.success("Link copied") : toast.error("Copy it from the box")
                      }
                    >
                      <ContentCopyOutlined />
                    </IconButton>
                  </InputAdornment>
                ),
              },
            }}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{link ? "Done" : "Cancel"}</Button>
        {!link && (
          <Button variant="contained" loading={busy} onClick={create}>
            Create link
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
