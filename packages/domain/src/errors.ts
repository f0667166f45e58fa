// Spec §8 and DESIGN §3.4: messages that appear verbatim.
export const MESSAGES = {
  premiumOnly: "Only the premium users have permission to access the website!",
  liteNoAccess: "The lite tier has no permission to access the website!",
  accountIdRequired: "Account ID is required",
  outlookSubscriptionMissing: "Unable to get Outlook Subscription",
  notAuthenticated: "The user does not have an active session or is not authenticated",
  authSessionMissing: "Auth session missing!",
  authEventMissing: "Auth event missing!",
  methodNotAllowed: "Method Not Allowed",
  requestFailed: "Request failed",
  notLoggedIn: "Not logged in.",
  noCurrentSession: "No current session.",
  invalidSessionData: "Invalid session data.",
  emailOrPhoneRequired: "You must provide either an email or phone number and a password",
} as const;

export type ApiError = { code: string; message: string; details?: unknown };

// Errors read their message from msg, message, error_description or error (spec §8).
export function errorMessage(body: unknown, fallback = "Something went wrong"): string {
  if (body && typeof body === "object") {
    const b = body as Record<string, unknown>;
    for (const key of ["msg", "message", "error_description", "error"]) {
      if (typeof b[key] === "string" && b[key]) return b[key] as string;
    }
  }
  return fallback;
}
