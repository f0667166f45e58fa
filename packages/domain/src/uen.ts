// Singapore Unique Entity Numbers as ACRA issues them (issue 9 §2): a business nnnnnnnnX (8 digits and a check
// letter), a local company yyyynnnnnX (year of registration, 5 digits, check letter), any other entity TyyPQnnnnX
// or SyyPQnnnnX (T: 20yy, S: 19yy; PQ the entity type, e.g. LL, FC, SS; 4 digits; check letter).
const UEN = /^(?:\d{8}[A-Z]|\d{9}[A-Z]|[ST]\d{2}[A-Z]{2}\d{4}[A-Z])$/;

export const UEN_EXAMPLES = "201912345K, 12345678X or T09LL0001B";

// How a UEN is kept: without surrounding spaces, in capitals ("t09ll0001b " → "T09LL0001B").
export function normalizeUen(value: string): string {
  return value.trim().toUpperCase();
}

export function isUen(value: string): boolean {
  return UEN.test(normalizeUen(value));
}
