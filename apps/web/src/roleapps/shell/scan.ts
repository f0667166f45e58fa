import { useEffect, useRef } from "react";
import { createWedgeDetector } from "./scan-core.ts";

export { createWedgeDetector, validGtin } from "./scan-core.ts";

function inTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !["button", "checkbox", "radio", "submit", "reset", "range", "color", "file"].includes(target.type);
  }
  return false;
}

// A keyboard-wedge scanner anywhere on the page outside a text field (a scan into a text field is that field's:
// ScanField takes it). The Enter that ends a scan is kept from pressing the focused button.
export function useWedgeScanner(onScan: (code: string) => void): void {
  const handler = useRef(onScan);
  handler.current = onScan;
  useEffect(() => {
    const detector = createWedgeDetector();
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || inTextField(e.target)) {
        detector.reset();
        return;
      }
      const code = detector.key(e.key, e.timeStamp || performance.now());
      if (code) {
        e.preventDefault();
        e.stopPropagation();
        handler.current(code);
      }
    };
    window.addEventListener("keydown", onKey, { capture: true });
    return () => window.removeEventListener("keydown", onKey, { capture: true });
  }, []);
}
