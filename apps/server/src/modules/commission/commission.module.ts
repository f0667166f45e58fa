// Issue 12: commission rules, statements, approval and payment.
export function registerCommission(): void {}
