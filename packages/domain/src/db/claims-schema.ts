// Tables for progressive claims and retention (issue 12).
export {};
