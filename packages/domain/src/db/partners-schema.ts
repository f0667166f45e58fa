// Tables for supplier discount forms and project registrations, each with its public page (issue 11). Written only through commands; read through /rest/v1.
export {};
