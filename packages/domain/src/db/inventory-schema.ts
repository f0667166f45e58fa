// Tables for goods transfer forms, loan forms, stock levels and reorder levels (issue 11). Written only through commands; read through /rest/v1.
export {};
