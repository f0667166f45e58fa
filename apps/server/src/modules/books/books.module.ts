// Issue 12 "Books": manual journals, opening balances, bank accounts, the lock date and the year-end close.
export function registerBooks(): void {}
