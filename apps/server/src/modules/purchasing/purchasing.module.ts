// Issue 11: purchase orders, supplier delivery orders, supplier invoices, the three-way check, supplier payments (issue 11), on the documents engine.
export function registerPurchasing(): void {}
