// Tables for the books: bank accounts, the lock date, year-end closes, opening balances (issue 12).
export {};
