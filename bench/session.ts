// The request headers of a demo user signed in through the password grant, as supabase-js would send them.
export async function signedInHeaders(url: string, email = "admin@demo.test"): Promise<Record<string, string>> {
  const cfg = (await (await fetch(`${url}/api/config`)).json()) as { anonKey: string };
  const login = await fetch(`${url}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { "content-type": "application/json", apikey: cfg.anonKey },
    body: JSON.stringify({ email, password: "demo-pass-2026" }),
  });
  if (!login.ok) throw new Error(`sign-in ${email}: ${login.status} ${await login.text()}`);
  const { access_token } = (await login.json()) as { access_token: string };
  return { apikey: cfg.anonKey, authorization: `Bearer ${access_token}` };
}
