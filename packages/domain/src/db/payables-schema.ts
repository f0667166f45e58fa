// Supplier payments and what they pay (issue 11: accounts payable). Written only by record_payment.
export {};
