// Tables for purchase orders, supplier delivery orders, supplier invoices, the three-way check, supplier payments (issue 11). Written only through commands; read through /rest/v1.
export {};
