import type { Tx } from "./database.ts";

// Demo data for issue 12 (claims).
export async function seedClaims(_tx: Tx, _workspaceId: string, _slug: string): Promise<void> {}
