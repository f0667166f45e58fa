// Issue 12: trial balance, profit and loss, balance sheet, general ledger, GST F5 and the drill-down behind them.
export function registerFinancialReports(): void {}
