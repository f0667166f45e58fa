// Keyboard-wedge scanners type a code as a fast burst of keys ending in Enter (issue 22 "Barcodes"). People type
// a key every 100 ms or more; scanners a key every few milliseconds. A burst is at least MIN_LENGTH printable keys,
// each within MAX_GAP_MS of the one before, then Enter within MAX_GAP_MS too.
export const MAX_GAP_MS = 80;
export const MIN_LENGTH = 4;

export type WedgeDetector = {
  // Feeds one key (KeyboardEvent.key) at a time in ms; answers the code when the key ends a burst, else null.
  key(key: string, time: number): string | null;
  reset(): void;
};

export function createWedgeDetector(opts: { maxGapMs?: number; minLength?: number } = {}): WedgeDetector {
  const maxGap = opts.maxGapMs ?? MAX_GAP_MS;
  const minLength = opts.minLength ?? MIN_LENGTH;
  let buffer = "";
  let last = Number.NEGATIVE_INFINITY;
  return {
    key(key, time) {
      const gap = time - last;
      last = time;
      if (key === "Enter") {
        const code = buffer;
        buffer = "";
        return code.length >= minLength && gap <= maxGap ? code : null;
      }
      if (key.length !== 1) {
        // Shift and the like come with a scanner's capitals; anything else ends the burst.
        if (key !== "Shift") buffer = "";
        return null;
      }
      buffer = gap <= maxGap ? buffer + key : key;
      return null;
    },
    reset() {
      buffer = "";
      last = Number.NEGATIVE_INFINITY;
    },
  };
}

export { validGtin } from "@workmetrics/domain/barcode";
