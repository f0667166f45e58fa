// Issue 11: supplier payments, accounts payable, the three-way check queue and the receipts' attachments.
export function registerPayables(): void {}
