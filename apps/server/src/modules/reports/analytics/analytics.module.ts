// Issue 12: sales by salesperson and by month, purchases by supplier, stock movement (analytics, Pro).
export function registerAnalyticsReports(): void {}
