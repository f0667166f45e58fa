// The proof a driver takes at a stop (issue 22): photos compressed on the phone to a JPEG at most 1600 px on its
// longer side (a phone's 12 MP photo would be 4 MB; this is a few hundred KB, sent even on a weak signal), and the
// GPS fix with its accuracy.

export const MAX_PHOTO_SIDE = 1600;

export async function compressPhoto(file: File, maxSide = MAX_PHOTO_SIDE, quality = 0.8): Promise<string> {
  const bitmap = await loadImage(file);
  const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
  const w = Math.max(1, Math.round(bitmap.width * scale));
  const h = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement("canvas");
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("This browser cannot prepare photos");
  ctx.fillStyle = "#fff"; // a transparent PNG becomes white, not black, as a JPEG
  ctx.fillRect(0, 0, w, h);
  ctx.drawImage(bitmap, 0, 0, w, h);
  if ("close" in bitmap) bitmap.close();
  return canvas.toDataURL("image/jpeg", quality);
}

async function loadImage(file: File): Promise<ImageBitmap | HTMLImageElement> {
  if (typeof createImageBitmap === "function") {
    try {
      return await createImageBitmap(file, { imageOrientation: "from-image" });
    } catch {
      // fall through: some formats decode only through <img>
    }
  }
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    return img;
  } catch {
    throw new Error(`${file.name} is not a photo this phone can read`);
  } finally {
    URL.revokeObjectURL(url);
  }
}

export type Fix = { lat: number; lng: number; accuracy: number };

// One GPS fix: the phone's best within 10 s; null when refused or unavailable (delivery still goes on, the proof
// says there was no fix).
export function currentFix(timeoutMs = 10_000): Promise<Fix | { error: string }> {
  return new Promise((resolve) => {
    if (!("geolocation" in navigator)) {
      resolve({ error: "This device gives no location" });
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ lat: p.coords.latitude, lng: p.coords.longitude, accuracy: p.coords.accuracy }),
      (e) =>
        resolve({
          error: e.code === e.PERMISSION_DENIED ? "Location is not allowed for this app" : "No GPS fix yet",
        }),
      { enableHighAccuracy: true, timeout: timeoutMs, maximumAge: 30_000 },
    );
  });
}
