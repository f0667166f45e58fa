import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import { useTheme } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import { useEffect, useRef } from "react";

// A signature drawn on screen with a finger, a stylus or a mouse (pointer events on a canvas). `onChange` gets the
// drawing as a PNG data URL after each stroke, or null once cleared. The ink is always dark on white, as on paper,
// whatever the theme: the PNG is printed on the delivery order.
export function SignaturePad({ onChange, height = 180 }: { onChange(png: string | null): void; height?: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const last = useRef<{ x: number; y: number } | null>(null);
  const inked = useRef(false);
  const theme = useTheme();

  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    // Backing store at device resolution so the line is sharp; white behind, so the PNG is not transparent.
    const ratio = Math.max(1, window.devicePixelRatio || 1);
    const rect = c.getBoundingClientRect();
    c.width = Math.round(rect.width * ratio);
    c.height = Math.round(rect.height * ratio);
    const ctx = c.getContext("2d");
    if (!ctx) return;
    ctx.scale(ratio, ratio);
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, rect.width, rect.height);
    ctx.lineWidth = 2.5;
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.strokeStyle = "#111";
  }, []);

  const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };

  const down = (e: React.PointerEvent<HTMLCanvasElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drawing.current = true;
    last.current = point(e);
    const ctx = e.currentTarget.getContext("2d");
    if (ctx && last.current) {
      ctx.beginPath();
      ctx.arc(last.current.x, last.current.y, 1.2, 0, Math.PI * 2);
      ctx.fillStyle = "#111";
      ctx.fill();
    }
  };
  const move = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current || !last.current) return;
    const ctx = e.currentTarget.getContext("2d");
    if (!ctx) return;
    const p = point(e);
    ctx.beginPath();
    ctx.moveTo(last.current.x, last.current.y);
    ctx.lineTo(p.x, p.y);
    ctx.stroke();
    last.current = p;
    inked.current = true;
  };
  const up = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return;
    drawing.current = false;
    last.current = null;
    if (inked.current) onChange(e.currentTarget.toDataURL("image/png"));
  };
  const clear = () => {
    const c = canvas.current;
    const ctx = c?.getContext("2d");
    if (!c || !ctx) return;
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, c.width, c.height);
    ctx.restore();
    inked.current = false;
    onChange(null);
  };

  return (
    <Stack spacing={0.5}>
      <Box
        sx={{
          border: 2,
          borderColor: "divider",
          borderStyle: "dashed",
          borderRadius: 2,
          overflow: "hidden",
          bgcolor: "#fff",
          position: "relative",
        }}
      >
        <canvas
          ref={canvas}
          aria-label="Signature: sign here"
          data-testid="signature-pad"
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          onPointerCancel={up}
          style={{ display: "block", width: "100%", height, touchAction: "none", cursor: "crosshair" }}
        />
        <Typography
          variant="caption"
          sx={{ position: "absolute", left: 12, bottom: 6, color: "#777", pointerEvents: "none" }}
        >
          Sign above the line
        </Typography>
        <Box sx={{ position: "absolute", left: 12, right: 12, bottom: 24, borderTop: "1px solid #bbb" }} />
      </Box>
      <Stack direction="row" sx={{ justifyContent: "flex-end" }}>
        <Button size="small" onClick={clear} sx={{ color: theme.palette.text.secondary }}>
          Clear signature
        </Button>
      </Stack>
    </Stack>
  );
}
