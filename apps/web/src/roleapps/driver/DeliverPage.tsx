import AddAPhotoOutlined from "@mui/icons-material/AddAPhotoOutlined";
import ArrowBack from "@mui/icons-material/ArrowBack";
import CloseOutlined from "@mui/icons-material/CloseOutlined";
import MyLocationOutlined from "@mui/icons-material/MyLocationOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { MAX_PROOF_PHOTOS } from "@workmetrics/domain/commands/driver";
import { useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { Link, useNavigate } from "react-router";
import { runOrQueue } from "../shell/outbox.ts";
import { compressPhoto, currentFix, type Fix } from "./proof.ts";
import { SignaturePad } from "./SignaturePad.tsx";
import { back, StopMissing, stopPath, useStop } from "./StopPage.tsx";

// Delivered (issue 22): who received the goods, their signature, one to three photos (compressed on the phone) and
// the GPS fix with its accuracy; the device's time goes with it, the server adds its own.
export function DeliverPage() {
  const { stop, date, trip } = useStop();
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [signature, setSignature] = useState<string | null>(null);
  const [photos, setPhotos] = useState<string[]>([]);
  const [preparing, setPreparing] = useState(false);
  const [fix, setFix] = useState<Fix | { error: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const locate = () => {
    setFix(null);
    void currentFix().then(setFix);
  };
  // Once, when the page opens.
  useEffect(() => {
    void currentFix().then(setFix);
  }, []);

  if (!stop) return <StopMissing trip={trip} date={date} />;
  if (stop.state === "delivered" || stop.state === "failed") {
    return (
      <Stack spacing={2}>
        <Alert severity="info">This stop is already {stop.state}.</Alert>
        <Button component={Link} to={back(date)} startIcon={<ArrowBack />}>
          Back to the trip
        </Button>
      </Stack>
    );
  }

  const addPhotos = async (files: FileList | null) => {
    if (!files?.length) return;
    setPreparing(true);
    try {
      const room = MAX_PROOF_PHOTOS - photos.length;
      const taken = [...files].slice(0, room);
      if (files.length > room) toast(`Only ${MAX_PROOF_PHOTOS} photos are kept per delivery`);
      const made = await Promise.all(taken.map((f) => compressPhoto(f)));
      setPhotos((p) => [...p, ...made].slice(0, MAX_PROOF_PHOTOS));
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "The photo could not be read");
    } finally {
      setPreparing(false);
      if (input.current) input.current.value = "";
    }
  };

  const missing = !name.trim()
    ? "Give the name of the person who received the goods"
    : !signature
      ? "Ask for a signature"
      : photos.length === 0
        ? "Take at least one photo of the goods delivered"
        : null;

  const submit = async () => {
    setTried(true);
    if (missing || !signature) return;
    setBusy(true);
    try {
      const at = fix && "lat" in fix ? fix : null;
      const res = await runOrQueue(
        "delivery_deliver",
        {
          id: Number(stop.id),
          received_by: name.trim(),
          signature,
          photos,
          lat: at?.lat ?? null,
          lng: at?.lng ?? null,
          accuracy: at?.accuracy ?? null,
          device_time: new Date().toISOString(),
        },
        { label: `Delivered ${stop.number} to ${name.trim()} (${stop.company_name})` },
      );
      if (res.status === "refused") {
        toast.error(res.message);
        return;
      }
      toast.success(
        res.status === "queued"
          ? `${stop.number} is delivered on this phone; it is sent when the network is back`
          : `${stop.number} delivered`,
      );
      if (res.status === "done") void trip.refresh();
      navigate(back(date));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ alignItems: "center" }}>
        <Button component={Link} to={stopPath(stop.id, date)} startIcon={<ArrowBack />} sx={{ minHeight: 48 }}>
          Stop
        </Button>
      </Stack>
      <Box>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
          Deliver {stop.number}
        </Typography>
        <Typography color="text.secondary">{stop.company_name}</Typography>
      </Box>

      <TextField
        label="Received by"
        required
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={tried && !name.trim()}
        helperText={tried && !name.trim() ? "Give the name of the person who received the goods" : " "}
        slotProps={{ htmlInput: { maxLength: 200, autoComplete: "off", "data-testid": "received-by" } }}
      />

      <Box>
        <Typography variant="subtitle2" gutterBottom>
          Signature
        </Typography>
        <SignaturePad onChange={setSignature} />
        {tried && !signature && (
          <Typography variant="caption" color="error">
            Ask for a signature
          </Typography>
        )}
      </Box>

      <Box>
        <Typography variant="subtitle2" gutterBottom>
          Photos ({photos.length}/{MAX_PROOF_PHOTOS})
        </Typography>
        <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap", rowGap: 1 }}>
          {photos.map((p, i) => (
            <Box key={p.slice(-40) + String(i)} sx={{ position: "relative" }}>
              <Box
                component="img"
                src={p}
                alt={`Photo ${i + 1}`}
                sx={{ width: 96, height: 96, objectFit: "cover", borderRadius: 1, border: 1, borderColor: "divider" }}
              />
              <IconButton
                size="small"
                aria-label={`Remove photo ${i + 1}`}
                onClick={() => setPhotos((ps) => ps.filter((_, j) => j !== i))}
                sx={{ position: "absolute", top: 2, right: 2, bgcolor: "background.paper" }}
              >
                <CloseOutlined fontSize="small" />
              </IconButton>
            </Box>
          ))}
          {photos.length < MAX_PROOF_PHOTOS && (
            <Button
              variant="outlined"
              onClick={() => input.current?.click()}
              disabled={preparing}
              sx={{ width: 96, height: 96, flexDirection: "column" }}
            >
              {preparing ? <CircularProgress size={24} /> : <AddAPhotoOutlined />}
              <Typography variant="caption">Take photo</Typography>
            </Button>
          )}
        </Stack>
        <input
          ref={input}
          type="file"
          accept="image/*"
          capture="environment"
          multiple
          hidden
          data-testid="photo-input"
          onChange={(e) => void addPhotos(e.target.files)}
        />
        {tried && photos.length === 0 && (
          <Typography variant="caption" color="error">
            Take at least one photo of the goods delivered
          </Typography>
        )}
      </Box>

      <Stack direction="row" spacing={1} data-testid="gps-fix" sx={{ alignItems: "center" }}>
        <MyLocationOutlined color={fix && "lat" in fix ? "success" : "disabled"} />
        <Typography variant="body2" sx={{ flex: 1 }}>
          {fix === null
            ? "Finding your location…"
            : "lat" in fix
              ? `Location fixed within ${Math.round(fix.accuracy)} m`
              : `${fix.error}: the delivery is kept without a place`}
        </Typography>
        {fix !== null && (
          <Button size="small" onClick={locate}>
            Again
          </Button>
        )}
      </Stack>

      <Button
        variant="contained"
        color="success"
        size="large"
        onClick={submit}
        disabled={busy || preparing}
        sx={{ minHeight: 56 }}
      >
        {busy ? "Saving…" : "Confirm delivery"}
      </Button>
      {tried && missing && <Alert severity="warning">{missing}</Alert>}
    </Stack>
  );
}
