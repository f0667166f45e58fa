// GS1 barcodes (issue 22 "Barcodes"): the check digit of EAN-13, EAN-8, UPC-A and GTIN-14 — weights 3 and 1
// alternating from the right of the digits before it.
export function gtinCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = digits.charCodeAt(digits.length - 1 - i) - 48;
    sum += d * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

export function validGtin(code: string): boolean {
  if (!/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(code)) return false;
  return gtinCheckDigit(code.slice(0, -1)) === code.charCodeAt(code.length - 1) - 48;
}

// An EAN-13 from its first twelve digits.
export function ean13(first12: string): string {
  if (!/^\d{12}$/.test(first12)) throw new Error(`An EAN-13 starts with 12 digits, not "${first12}"`);
  return `${first12}${gtinCheckDigit(first12)}`;
}
