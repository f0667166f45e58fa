// Issue 12: team challenges, their live leaderboard and the calendar.
export function registerChallenge(): void {}
