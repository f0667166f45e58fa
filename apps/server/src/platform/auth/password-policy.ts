import { readFileSync } from "node:fs";
import path from "node:path";
import { AuthError } from "./auth-error.ts";

// Issue 3 rule 2 (NIST 800-63B): at least 8 characters, long passphrases allowed, no composition rules,
// and nothing from a list of common passwords (shipped with the code; no network lookup).
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

let common: Set<string> | null = null;
function commonPasswords(): Set<string> {
  common ??= new Set(
    readFileSync(path.join(import.meta.dirname, "common-passwords.txt"), "utf8")
      .split("\n")
      .filter(Boolean),
  );
  return common;
}

export type WeakReason = "length" | "pwned";

export function passwordWeakness(password: string): { reasons: WeakReason[]; message: string } | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) {
    return { reasons: ["length"], message: `Password should be at least ${PASSWORD_MIN} characters.` };
  }
  if (commonPasswords().has(password.toLowerCase())) {
    return {
      reasons: ["pwned"],
      message: "Password is known to be weak and easy to guess, please choose a different one.",
    };
  }
  return null;
}

export function assertStrongPassword(password: string): void {
  if ([...password].length > PASSWORD_MAX) {
    throw new AuthError(422, "validation_failed", `Password cannot be longer than ${PASSWORD_MAX} characters`);
  }
  const weak = passwordWeakness(password);
  if (weak) throw new AuthError(422, "weak_password", weak.message, { weak_password: { reasons: weak.reasons } });
}
