import type { Tx } from "./database.ts";

// Demo data for issue 12 (challenge).
export async function seedChallenge(_tx: Tx, _workspaceId: string, _slug: string): Promise<void> {}
