import type { Tx } from "./database.ts";

// Demo data for issue 12 (books).
export async function seedBooks(_tx: Tx, _workspaceId: string, _slug: string): Promise<void> {}
