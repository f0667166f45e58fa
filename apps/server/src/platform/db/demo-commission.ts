import type { Tx } from "./database.ts";

// Demo data for issue 12 (commission).
export async function seedCommission(_tx: Tx, _workspaceId: string, _slug: string): Promise<void> {}
