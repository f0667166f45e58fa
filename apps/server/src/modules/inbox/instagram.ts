import { sql } from "drizzle-orm";
import type { InboxConfig } from "../../config.ts";
import type { Db } from "../../platform/db/database.ts";
import { GraphError, metaFetch, type Sent } from "./graph.ts";
import { readState, signState } from "./outlook.ts";
import { seal, unseal } from "./secrets.ts";

// Issue 24: an Instagram professional account connected through Instagram's business login (the Instagram API with
// Instagram Login), as Meta documents it: the browser goes to {IG_LOGIN_URL}/oauth/authorize with our app's id, the
// scopes and a state signed for the workspace and the user who asked (SECRETS_KEY, ten minutes); Instagram returns
// it to /instagram/callback (spec §2's public /instagram prefix) with ?code (or ?error); the code is exchanged at
// {IG_API_URL}/oauth/access_token for a short-lived token, that for a long-lived one (60 days) at
// {IG_GRAPH_URL}/access_token, /me names the account (user_id: the id Instagram's webhooks name), and the account is
// subscribed to its messages (/me/subscribed_apps). It is kept as channel 3 with its token sealed and the token's
// expiry: an Instagram account with an expiry was connected this way, and its replies go out through Instagram's
// Graph API (/{ig-user-id}/messages); one connected with a page's token (channel_connect) has none and replies through
// Facebook's. A scheduled job refreshes a long-lived token before it runs out (refresh_access_token). The state is
// Outlook's signed state (outlook.ts), signed for this sign-in.

export const INSTAGRAM_CALLBACK_PATH = "/instagram/callback";
export const INSTAGRAM_REFRESH_JOB = "inbox.instagram_refresh";
export const INSTAGRAM_SCOPES = "instagram_business_basic,instagram_business_manage_messages";
const IG_VERSION = "v21.0";
// Refreshed when fewer than this many days are left (the job runs daily; a long-lived token lives 60 days).
const REFRESH_WITHIN_MS = 10 * 24 * 3600_000;

type Log = { warn(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };
export const signInstagramState = (key: Buffer, ws: string, uid: string) =>
  signState(key, ws, uid, Date.now(), "instagram");

export const instagramRedirectUri = (publicUrl: string) => `${publicUrl}${INSTAGRAM_CALLBACK_PATH}`;

export function instagramConfigured(cfg: InboxConfig): { id: string; secret: string } | null {
  return cfg.igAppId && cfg.igAppSecret ? { id: cfg.igAppId, secret: cfg.igAppSecret } : null;
}

export function instagramAuthorizeUrl(cfg: InboxConfig, appId: string, publicUrl: string, state: string): string {
  const q = new URLSearchParams({
    client_id: appId,
    redirect_uri: instagramRedirectUri(publicUrl),
    response_type: "code",
    scope: INSTAGRAM_SCOPES,
    state,
    enable_fb_login: "0",
  });
  return `${cfg.igLoginUrl}/oauth/authorize?${q}`;
}

type LongLived = { access_token?: string; token_type?: string; expires_in?: number };

const expiresAt = (t: LongLived) => new Date(Date.now() + (t.expires_in ?? 60 * 24 * 3600) * 1000);

export type InstagramConnected = { ws: string; accountId: number; subscribed: boolean; error: string | null };

export async function connectInstagram(
  db: Db,
  cfg: InboxConfig,
  publicUrl: string,
  rawCode: string,
  state: string,
  log: Log,
): Promise<InstagramConnected> {
  const s = readState(cfg.secretsKey, state, Date.now(), "instagram");
  if (!s) throw new GraphError("The sign-in link expired or was not made here: start again", 400, null, null);
  const app = instagramConfigured(cfg);
  if (!app)
    throw new GraphError("Instagram is not set up on this server (IG_APP_ID and IG_APP_SECRET)", 503, null, null);
  // Instagram appends "#_" to the code it returns; a browser drops the fragment, a copied address may not.
  const code = rawCode.replace(/#_$/, "");
  const short = await metaFetch<{
    access_token?: string;
    user_id?: string | number;
    data?: Array<{ access_token?: string; user_id?: string | number }>;
  }>(`${cfg.igApiUrl}/oauth/access_token`, null, {
    method: "POST",
    form: new URLSearchParams({
      client_id: app.id,
      client_secret: app.secret,
      grant_type: "authorization_code",
      redirect_uri: instagramRedirectUri(publicUrl),
      code,
    }),
  });
  // Meta documents both shapes: the token at the top level, or in data[0].
  const shortToken = short.access_token ?? short.data?.[0]?.access_token;
  if (!shortToken) throw new GraphError("Instagram gave no access token for the code", 400, null, null);
  const long = await metaFetch<LongLived>(
    `${cfg.igGraphUrl}/access_token?${new URLSearchParams({
      grant_type: "ig_exchange_token",
      client_secret: app.secret,
      access_token: shortToken,
    })}`,
    null,
  );
  if (!long.access_token) throw new GraphError("Instagram gave no long-lived token", 400, null, null);
  const who = await metaFetch<{ user_id?: string | number; username?: string; name?: string; id?: string }>(
    `${cfg.igGraphUrl}/${IG_VERSION}/me?fields=user_id,username,name`,
    long.access_token,
  );
  const igId = String(who.user_id ?? who.id ?? "");
  if (!igId) throw new GraphError("Instagram did not name the account", 400, null, null);
  const name = who.username ? `@${who.username}` : (who.name ?? igId);
  const accountId = await db.transaction(async (tx) => {
    // The workspace must still be there and the user still its member (the link may be ten minutes old).
    const member = await tx.execute(
      sql`select 1 from "user" where workspace_id = ${s.ws}::uuid and id = ${s.uid}::uuid`,
    );
    if (!member.rows[0]) throw new GraphError("You are no longer a member of that workspace", 403, null, null);
    const live = await tx.execute(sql`select workspace_id from channel_account
      where channel_id = 3 and external_id = ${igId} and status <> 'disconnected' and workspace_id <> ${s.ws}::uuid`);
    if (live.rows[0]) {
      throw new GraphError(
        "This Instagram account is already connected to another workspace; disconnect it there first",
        409,
        null,
        null,
      );
    }
    const existing = await tx.execute(sql`select id from channel_account where workspace_id = ${s.ws}::uuid
        and channel_id = 3 and external_id = ${igId}
      order by (status <> 'disconnected') desc, id limit 1 for update`);
    let id = existing.rows[0] ? Number((existing.rows[0] as { id: number }).id) : 0;
    if (!id) {
      const made = await tx.execute(sql`insert into channel_account
          (workspace_id, channel_id, external_id, display_name, status, connected_by)
        values (${s.ws}::uuid, 3, ${igId}, ${name}, 'connected', ${s.uid}::uuid) returning id`);
      id = Number((made.rows[0] as { id: number }).id);
    }
    await tx.execute(sql`update channel_account set access_token = ${seal(cfg.secretsKey, s.ws, id, long.access_token as string)},
        token_expires_at = ${expiresAt(long).toISOString()}::timestamptz, display_name = ${name}, status = 'connected',
        last_error = null, last_error_at = null, connected_by = ${s.uid}::uuid, updated_at = now()
      where workspace_id = ${s.ws}::uuid and id = ${id}`);
    return id;
  });
  try {
    const sub = await metaFetch<{ success?: boolean }>(
      `${cfg.igGraphUrl}/${IG_VERSION}/me/subscribed_apps?subscribed_fields=messages`,
      long.access_token,
      { method: "POST" },
    );
    if (!sub.success) throw new GraphError("Instagram did not confirm the subscription to messages", 200, null, null);
    return { ws: s.ws, accountId, subscribed: true, error: null };
  } catch (err) {
    if (!(err instanceof GraphError)) throw err;
    const message = `The account's messages could not be subscribed to: ${err.message}`;
    await db.execute(sql`update channel_account set status = 'failing', last_error = ${message}, last_error_at = now(),
        updated_at = now() where workspace_id = ${s.ws}::uuid and id = ${accountId}`);
    log.warn({ account: accountId, err: err.message }, "an Instagram account could not be subscribed to");
    return { ws: s.ws, accountId, subscribed: false, error: err.message };
  }
}

// A reply from an account connected through Instagram's login: POST /{ig-user-id}/messages on Instagram's Graph API.
export async function sendInstagramMessage(
  cfg: InboxConfig,
  token: string,
  igUserId: string,
  recipientId: string,
  text: string,
): Promise<Sent> {
  const res = await metaFetch<{ message_id?: string }>(
    `${cfg.igGraphUrl}/${IG_VERSION}/${encodeURIComponent(igUserId)}/messages`,
    token,
    { method: "POST", body: { recipient: { id: recipientId }, message: { text } } },
  );
  if (!res.message_id) throw new GraphError("Instagram accepted the message but gave it no id", 200, null, null);
  return { id: res.message_id };
}

// The daily upkeep: each long-lived token with fewer than ten days left is refreshed (Instagram allows it once the
// token is a day old) and the new one kept sealed; a refused refresh marks the account "needs re-authorising".
export async function refreshInstagramTokens(
  db: Db,
  cfg: InboxConfig,
  log: Log,
): Promise<{ refreshed: number; failed: number }> {
  const due = await db.execute(sql`select workspace_id, id, access_token from channel_account
    where channel_id = 3 and status <> 'disconnected' and access_token is not null and token_expires_at is not null
      and token_expires_at < ${new Date(Date.now() + REFRESH_WITHIN_MS).toISOString()}::timestamptz`);
  let refreshed = 0;
  let failed = 0;
  for (const row of due.rows as Array<{ workspace_id: string; id: number; access_token: string }>) {
    const ws = row.workspace_id;
    const id = Number(row.id);
    try {
      const t = await metaFetch<LongLived>(
        `${cfg.igGraphUrl}/refresh_access_token?${new URLSearchParams({
          grant_type: "ig_refresh_token",
          access_token: unseal(cfg.secretsKey, ws, id, row.access_token),
        })}`,
        null,
      );
      if (!t.access_token) throw new GraphError("Instagram gave no refreshed token", 400, null, null);
      await db.execute(sql`update channel_account set access_token = ${seal(cfg.secretsKey, ws, id, t.access_token)},
          token_expires_at = ${expiresAt(t).toISOString()}::timestamptz, updated_at = now()
        where workspace_id = ${ws}::uuid and id = ${id}`);
      refreshed++;
    } catch (err) {
      if (!(err instanceof GraphError)) throw err;
      failed++;
      const status = err.tokenInvalid || (err.status >= 400 && err.status < 500) ? "needs_reauth" : "failing";
      await db.execute(sql`update channel_account set status = ${status},
          last_error = ${`The Instagram token could not be refreshed: ${err.message}`}, last_error_at = now(),
          updated_at = now() where workspace_id = ${ws}::uuid and id = ${id}`);
      log.warn({ account: id, err: err.message }, "an Instagram token could not be refreshed");
    }
  }
  return { refreshed, failed };
}
