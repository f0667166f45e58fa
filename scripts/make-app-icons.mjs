// Draws the installable apps' icons (issue 22) into apps/web/public/icons/: 192 and 512 px PNGs per app and a
// maskable 512 px one (its glyph inside the central safe zone, the colour to the edges). Node's own zlib only.
// Run once after changing a drawing: `node scripts/make-app-icons.mjs` (the PNGs are committed).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";

const OUT = path.join(import.meta.dirname, "..", "apps", "web", "public", "icons");

const hex = (h) => [
  Number.parseInt(h.slice(1, 3), 16),
  Number.parseInt(h.slice(3, 5), 16),
  Number.parseInt(h.slice(5, 7), 16),
];

const rect = (x0, y0, x1, y1) => (x, y) => x >= x0 && x <= x1 && y >= y0 && y <= y1;
const circle = (cx, cy, r) => (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const poly = (pts) => (x, y) => {
  let inside = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const [xi, yi] = pts[i];
    const [xj, yj] = pts[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
};
const roundRect = (x0, y0, x1, y1, r) => (x, y) => {
  if (!rect(x0, y0, x1, y1)(x, y)) return false;
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
const any =
  (...fs) =>
  (x, y) =>
    fs.some((f) => f(x, y));
const minus =
  (a, ...cut) =>
  (x, y) =>
    a(x, y) && !cut.some((f) => f(x, y));

// Each glyph in a unit square, white on the app's colour.
const APPS = {
  workmetrics: {
    color: "#36a1cf",
    glyph: any(rect(0.24, 0.52, 0.36, 0.76), rect(0.44, 0.36, 0.56, 0.76), rect(0.64, 0.24, 0.76, 0.76)),
  },
  driver: {
    color: "#2e7d32",
    glyph: minus(
      any(
        rect(0.14, 0.3, 0.58, 0.64),
        poly([
          [0.6, 0.4],
          [0.76, 0.4],
          [0.86, 0.52],
          [0.86, 0.64],
          [0.6, 0.64],
        ]),
        circle(0.3, 0.68, 0.085),
        circle(0.72, 0.68, 0.085),
      ),
      circle(0.3, 0.68, 0.035),
      circle(0.72, 0.68, 0.035),
      poly([
        [0.64, 0.44],
        [0.74, 0.44],
        [0.8, 0.52],
        [0.64, 0.52],
      ]),
    ),
  },
  warehouse: {
    color: "#e65100",
    glyph: any(
      minus(
        poly([
          [0.16, 0.42],
          [0.5, 0.2],
          [0.84, 0.42],
          [0.84, 0.8],
          [0.16, 0.8],
        ]),
        rect(0.3, 0.5, 0.7, 0.8),
      ),
      rect(0.34, 0.64, 0.49, 0.77),
      rect(0.51, 0.64, 0.66, 0.77),
      rect(0.425, 0.52, 0.575, 0.62),
    ),
  },
  pos: {
    color: "#6a1b9a",
    glyph: any(
      minus(
        roundRect(0.24, 0.18, 0.76, 0.62, 0.04),
        rect(0.31, 0.25, 0.69, 0.4),
        rect(0.32, 0.46, 0.4, 0.5),
        rect(0.46, 0.46, 0.54, 0.5),
        rect(0.6, 0.46, 0.68, 0.5),
        rect(0.32, 0.54, 0.4, 0.58),
        rect(0.46, 0.54, 0.54, 0.58),
        rect(0.6, 0.54, 0.68, 0.58),
      ),
      roundRect(0.16, 0.66, 0.84, 0.82, 0.03),
    ),
  },
};

function draw(size, app, maskable) {
  const { color, glyph } = APPS[app];
  const bg = hex(color);
  const S = 4; // 4×4 samples a pixel
  // "any": a rounded tile with a transparent corner; maskable: full bleed, the glyph in the middle 70 %.
  const tile = maskable ? () => true : roundRect(0.02, 0.02, 0.98, 0.98, 0.2);
  const scale = maskable ? 0.7 : 0.92;
  const offset = (1 - scale) / 2;
  const rgba = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let inTile = 0;
      let inGlyph = 0;
      for (let sy = 0; sy < S; sy++) {
        for (let sx = 0; sx < S; sx++) {
          const x = (px + (sx + 0.5) / S) / size;
          const y = (py + (sy + 0.5) / S) / size;
          if (!tile(x, y)) continue;
          inTile++;
          if (glyph((x - offset) / scale, (y - offset) / scale)) inGlyph++;
        }
      }
      const n = S * S;
      const g = inGlyph / Math.max(inTile, 1);
      const i = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) rgba[i + c] = Math.round(bg[c] * (1 - g) + 255 * g);
      rgba[i + 3] = Math.round((255 * inTile) / n);
    }
  }
  return png(size, rgba);
}

const CRC = new Int32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
function crc32(buf) {
  let c = -1;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

mkdirSync(OUT, { recursive: true });
for (const app of Object.keys(APPS)) {
  for (const size of [192, 512]) writeFileSync(path.join(OUT, `${app}-${size}.png`), draw(size, app, false));
  writeFileSync(path.join(OUT, `${app}-maskable-512.png`), draw(512, app, true));
}
console.log(`icons written to ${OUT}`);
