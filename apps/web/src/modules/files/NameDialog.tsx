import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import TextField from "@mui/material/TextField";
import { entryNameProblem } from "@workmetrics/domain";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { messageOf } from "./files-api.ts";

// One name typed by a person: a new folder, or a rename. The domain's rules are checked before the server's.
export function NameDialog(props: {
  title: string;
  label: string;
  initial: string;
  confirmLabel: string;
  onCancel(): void;
  onSubmit(name: string): Promise<void>;
}) {
  const [name, setName] = useState(props.initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const trimmed = name.trim();
    const problem = entryNameProblem(trimmed);
    if (problem) return setError(problem);
    setBusy(true);
    try {
      await props.onSubmit(trimmed);
    } catch (err) {
      setError(messageOf(err, "That did not work. Please try again."));
    } finally {
      setBusy(false);
    }
  }

  // The extension stays put when renaming: the part before it starts selected.
  const inputRef = useRef<HTMLInputElement>(null);
  const initial = props.initial;
  useEffect(() => {
    const dot = initial.lastIndexOf(".");
    const frame = requestAnimationFrame(() => inputRef.current?.setSelectionRange(0, dot > 0 ? dot : initial.length));
    return () => cancelAnimationFrame(frame);
  }, [initial]);

  return (
    <Dialog open onClose={busy ? undefined : props.onCancel} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{props.title}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label={props.label}
            value={name}
            inputRef={inputRef}
            onChange={(e) => {
              setName(e.target.value);
              setError(null);
            }}
            error={Boolean(error)}
            helperText={error ?? " "}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={busy}>
            {props.confirmLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
