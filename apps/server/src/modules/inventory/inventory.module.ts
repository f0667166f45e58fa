// Issue 11: goods transfer forms, loan forms, stock levels and reorder levels (issue 11), on the documents engine.
export function registerInventory(): void {}
