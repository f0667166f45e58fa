// Tables for commission rules and statements (issue 12).
export {};
