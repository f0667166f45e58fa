import { hash, verify } from "@node-rs/argon2";

// Issue 3 rule: argon2id with m=19456 KiB, t=2, p=1 (OWASP's recommended floor).
const ARGON2 = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

export function verifyPassword(hashed: string, password: string): Promise<boolean> {
  return verify(hashed, password).catch(() => false);
}
