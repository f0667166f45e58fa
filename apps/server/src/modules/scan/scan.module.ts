import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import { documentFromScan, documentScanGet } from "./scan.rpc.ts";

// Issue 24 "OCR" (Premium): stored supplier invoices and receipts read into drafts (DESIGN §2.3.2 "Scans").
export function registerScan(): void {
  registerRpc(documentFromScan, documentScanGet);
}
