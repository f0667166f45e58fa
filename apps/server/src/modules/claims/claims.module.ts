// Issue 12: progressive claims with retention, release claims and the retention schedule.
export function registerClaims(): void {}
