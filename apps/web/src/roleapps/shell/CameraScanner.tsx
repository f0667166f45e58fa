import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Typography from "@mui/material/Typography";
import { useEffect, useRef, useState } from "react";
// The WASM reader is one of the app's own files (precached with it), never fetched from a CDN.
import readerWasm from "zxing-wasm/reader/zxing_reader.wasm?url";

type Detector = { detect(source: CanvasImageSource): Promise<{ rawValue: string }[]> };
const FORMATS = ["ean_13", "ean_8", "upc_a", "upc_e", "code_128", "code_39", "qr_code", "itf"];

// The browser's BarcodeDetector where it has one (Chrome on Android), else the barcode-detector package's WASM one.
async function makeDetector(): Promise<Detector> {
  const Native = (globalThis as { BarcodeDetector?: new (o: { formats: string[] }) => Detector }).BarcodeDetector;
  if (Native) {
    const supported = await (Native as unknown as { getSupportedFormats(): Promise<string[]> }).getSupportedFormats?.();
    const formats = FORMATS.filter((f) => !supported || supported.includes(f));
    if (formats.length) return new Native({ formats });
  }
  const { BarcodeDetector, prepareZXingModule } = await import("barcode-detector/ponyfill");
  prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith(".wasm") ? readerWasm : prefix + path) },
  });
  return new BarcodeDetector({ formats: FORMATS as never });
}

// The camera reading a barcode (issue 22 "Barcodes"): the back camera full width, a frame read every 250 ms; the
// first code read closes it.
export default function CameraScanner({ onCode, onClose }: { onCode(code: string): void; onClose(): void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  const done = useRef(onCode);
  done.current = onCode;

  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;
    (async () => {
      if (!navigator.mediaDevices?.getUserMedia) {
        throw new Error("This browser gives no camera to web pages. Type or scan the code instead.");
      }
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
      if (stopped) return;
      const v = video.current;
      if (!v) return;
      v.srcObject = stream;
      await v.play();
      const detector = await makeDetector();
      const tick = async () => {
        if (stopped) return;
        try {
          if (v.readyState >= 2) {
            const found = await detector.detect(v);
            const code = found.find((f) => f.rawValue)?.rawValue;
            if (code && !stopped) {
              stopped = true;
              navigator.vibrate?.(60);
              done.current(code);
              return;
            }
          }
        } catch {
          // A frame that cannot be read: try the next one.
        }
        timer = setTimeout(tick, 250);
      };
      void tick();
    })().catch((err: Error) => {
      if (stopped) return;
      setError(
        err.name === "NotAllowedError"
          ? "The camera is not allowed for this site. Allow it in the browser's settings, or type the code."
          : err.name === "NotFoundError"
            ? "No camera was found on this device."
            : err.message,
      );
    });
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, []);

  return (
    <Dialog open fullScreen onClose={onClose} aria-labelledby="camera-scan-title">
      <DialogTitle id="camera-scan-title">Scan a barcode</DialogTitle>
      <DialogContent sx={{ p: 0, bgcolor: "#000", display: "grid", placeItems: "center" }}>
        {error ? (
          <Alert severity="warning" sx={{ m: 2 }}>
            {error}
          </Alert>
        ) : (
          <Box sx={{ position: "relative", width: "100%" }}>
            <Box component="video" ref={video} muted playsInline sx={{ width: "100%", display: "block" }} />
            <Box
              aria-hidden
              sx={{
                position: "absolute",
                inset: "30% 10%",
                border: "3px solid",
                borderColor: "primary.main",
                borderRadius: 2,
              }}
            />
            <Typography sx={{ color: "#fff", textAlign: "center", p: 2 }}>Hold the barcode inside the frame</Typography>
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button size="large" onClick={onClose} sx={{ minHeight: 48 }}>
          Cancel
        </Button>
      </DialogActions>
    </Dialog>
  );
}
