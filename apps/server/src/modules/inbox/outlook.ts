import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { MESSAGES } from "@workmetrics/domain";
import { sql } from "drizzle-orm";
import type { InboxConfig } from "../../config.ts";
import type { Db, Tx } from "../../platform/db/database.ts";
import { GraphError } from "./graph.ts";
import { alreadyStored, storeInbound } from "./intake.ts";
import {
  createSubscription,
  deleteSubscription,
  getMail,
  getSubscription,
  inboxDelta,
  type MsMail,
  me,
  renewSubscription,
  replyToMail,
  SUBSCRIPTION_MINUTES,
  sendMail,
  tokenRequest,
} from "./microsoft.ts";
import { seal, unseal } from "./secrets.ts";
import type { Account } from "./store.ts";

// Issue 24, the Outlook half of the inbox (channel 4, Sales Email): Microsoft's OAuth (authorization code with
// offline_access and PKCE, the state signed with SECRETS_KEY and bound to the workspace and the user who asked),
// the tokens kept sealed and refreshed in ONE place (outlookToken: before expiry, the rotated refresh token kept,
// "needs re-authorising" when Microsoft refuses), the Graph subscription on the mailbox's inbox (created on connect,
// renewed by a scheduled job before it lapses, recreated when Graph answers 404 — spec §6's check and §8's
// messages), and the notifications' job: each mail fetched with its attachments into the conversation of its
// Graph conversationId, once however often it is notified; lifecycle events renew, recreate or catch up by delta.

export const OUTLOOK_NOTIFY_JOB = "inbox.outlook_notify";
export const OUTLOOK_RENEW_JOB = "inbox.outlook_renew";
export const OUTLOOK_CALLBACK_PATH = "/outlook/callback";
export const OUTLOOK_WEBHOOK_PATH = "/webhooks/outlook";
const STATE_TTL_MS = 10 * 60_000;
const REFRESH_MARGIN_MS = 5 * 60_000;
// Renewed when fewer than this many hours are left (the job runs hourly; a subscription lives ~70 hours).
const RENEW_WITHIN_MS = 24 * 3600_000;

type Log = { warn(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };

const b64 = (b: Buffer) => b.toString("base64url");
const mac = (key: Buffer, what: string) => createHmac("sha256", key).update(what).digest();
const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

// ---- the OAuth state: who asked, for which workspace, until when — signed, so the return cannot be redirected
// onto another workspace; the PKCE verifier is derived from it (nothing to keep between the two requests). Signed for
// one sign-in (Outlook's, or Instagram's business login: instagram.ts): one service's state opens no other's return.

export type OutlookState = { ws: string; uid: string; exp: number; n: string };
export type SignIn = "outlook" | "instagram";

export function signState(key: Buffer, ws: string, uid: string, now = Date.now(), signIn: SignIn = "outlook"): string {
  const body = b64(Buffer.from(JSON.stringify({ ws, uid, exp: now + STATE_TTL_MS, n: b64(randomBytes(9)) })));
  return `${body}.${b64(mac(key, `${signIn}-state:${body}`))}`;
}

export function readState(
  key: Buffer,
  state: string | undefined,
  now = Date.now(),
  signIn: SignIn = "outlook",
): OutlookState | null {
  const [body, sig] = (state ?? "").split(".");
  if (!body || !sig || !same(sig, b64(mac(key, `${signIn}-state:${body}`)))) return null;
  try {
    const s = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as OutlookState;
    return typeof s.ws === "string" && typeof s.uid === "string" && s.exp > now ? s : null;
  } catch {
    return null;
  }
}

export const pkceVerifier = (key: Buffer, state: string) => b64(mac(key, `outlook-pkce:${state}`));
export const pkceChallenge = (verifier: string) => b64(createHash("sha256").update(verifier).digest());

// The secret Graph echoes in every notification of an account's subscription (Graph allows 128 characters).
export const clientStateFor = (key: Buffer, ws: string, accountId: number) =>
  b64(mac(key, `outlook-client-state:${ws}:${accountId}`));

export const redirectUri = (publicUrl: string) => `${publicUrl}${OUTLOOK_CALLBACK_PATH}`;

function configured(cfg: InboxConfig): { id: string; secret: string } {
  if (!cfg.msClientId || !cfg.msClientSecret) {
    throw new GraphError("Outlook is not set up on this server (MS_CLIENT_ID and MS_CLIENT_SECRET)", 503, null, null);
  }
  return { id: cfg.msClientId, secret: cfg.msClientSecret };
}

// ---- tokens

type TokenRow = {
  id: number;
  workspace_id: string;
  access_token: string | null;
  refresh_token: string | null;
  token_expires_at: string | Date | null;
  status: string;
};

async function keepTokens(
  tx: Tx | Db,
  key: Buffer,
  ws: string,
  id: number,
  t: { access_token: string; refresh_token?: string; expires_in: number },
) {
  const expires = new Date(Date.now() + Math.max(0, Number(t.expires_in) || 0) * 1000).toISOString();
  const refresh = t.refresh_token ? seal(key, ws, id, t.refresh_token) : null;
  await tx.execute(sql`update channel_account set access_token = ${seal(key, ws, id, t.access_token)},
      refresh_token = coalesce(${refresh}, refresh_token), token_expires_at = ${expires}::timestamptz,
      status = case when status = 'disconnected' then status else 'connected' end,
      last_error = null, last_error_at = null, updated_at = now()
    where workspace_id = ${ws}::uuid and id = ${id}`);
}

export async function markAccount(
  db: Db | Tx,
  ws: string,
  id: number,
  status: "needs_reauth" | "failing",
  error: string,
): Promise<void> {
  await db.execute(sql`update channel_account set status = ${status}, last_error = ${error}, last_error_at = now(),
      updated_at = now()
    where workspace_id = ${ws}::uuid and id = ${id} and status <> 'disconnected'`);
}

// An Outlook account's access token, refreshed first when it expires within five minutes. The refresh runs under
// the account row's lock, so two jobs never spend the same refresh token (Microsoft rotates it: the second would
// be refused); the one that waited finds the new token. A refused refresh marks the account "needs re-authorising".
export async function outlookToken(db: Db, cfg: InboxConfig, ws: string, accountId: number): Promise<string> {
  const fresh = (r: TokenRow) =>
    r.access_token && r.token_expires_at && new Date(r.token_expires_at).getTime() > Date.now() + REFRESH_MARGIN_MS;
  const read = async (tx: Db | Tx, lock: boolean) =>
    (
      await tx.execute(sql`select id, workspace_id, access_token, refresh_token, token_expires_at, status
        from channel_account where workspace_id = ${ws}::uuid and id = ${accountId} and channel_id = 4
        ${lock ? sql`for update` : sql``}`)
    ).rows[0] as TokenRow | undefined;
  const first = await read(db, false);
  if (!first || first.status === "disconnected" || !first.access_token) {
    throw new GraphError("The Outlook account is disconnected: connect it again", 401, null, null);
  }
  if (fresh(first)) return unseal(cfg.secretsKey, ws, accountId, first.access_token as string);
  const client = configured(cfg);
  let refused: string | null = null;
  const token = await db.transaction(async (tx) => {
    const row = await read(tx, true);
    if (!row?.access_token) throw new GraphError("The Outlook account is disconnected", 401, null, null);
    if (fresh(row)) return unseal(cfg.secretsKey, ws, accountId, row.access_token);
    if (!row.refresh_token) {
      refused = "Microsoft gave no refresh token: connect Outlook again";
      return null;
    }
    const refresh = unseal(cfg.secretsKey, ws, accountId, row.refresh_token);
    try {
      const t = await tokenRequest(cfg.msLoginUrl, client.id, client.secret, { refresh_token: refresh });
      await keepTokens(tx, cfg.secretsKey, ws, accountId, t);
      return t.access_token;
    } catch (err) {
      if (err instanceof GraphError && err.tokenInvalid) {
        refused = err.message;
        return null;
      }
      throw err;
    }
  });
  if (token) return token;
  await markAccount(db, ws, accountId, "needs_reauth", refused ?? "Microsoft refused the refresh");
  throw new GraphError(`Outlook needs re-authorising: ${refused}`, 401, null, null);
}

// A Graph call with the account's token; a refused token marks the account "needs re-authorising".
async function withToken<T>(
  db: Db,
  cfg: InboxConfig,
  ws: string,
  accountId: number,
  call: (token: string) => Promise<T>,
): Promise<T> {
  const token = await outlookToken(db, cfg, ws, accountId);
  try {
    return await call(token);
  } catch (err) {
    if (err instanceof GraphError && err.status === 401) {
      await markAccount(db, ws, accountId, "needs_reauth", err.message);
    }
    throw err;
  }
}

// ---- connecting: the return from Microsoft's login

export type ConnectResult = { ws: string; accountId: number; subscribed: boolean; error: string | null };

export async function connectOutlook(
  db: Db,
  cfg: InboxConfig,
  publicUrl: string,
  code: string,
  state: string,
  log: Log,
): Promise<ConnectResult> {
  const s = readState(cfg.secretsKey, state);
  if (!s) throw new GraphError("The sign-in link expired or was not made here: start again", 400, null, null);
  const client = configured(cfg);
  const tokens = await tokenRequest(cfg.msLoginUrl, client.id, client.secret, {
    code,
    redirect_uri: redirectUri(publicUrl),
    code_verifier: pkceVerifier(cfg.secretsKey, state),
  });
  if (!tokens.refresh_token) {
    throw new GraphError("Microsoft gave no refresh token (offline_access was not granted)", 400, null, null);
  }
  const who = await me(cfg.msGraphUrl, tokens.access_token);
  const address = who.mail || who.userPrincipalName || who.displayName || who.id;
  const accountId = await db.transaction(async (tx) => {
    // The workspace must still be there and the user still its member (the link may be ten minutes old).
    const member = await tx.execute(sql`select 1 from "user"
      where workspace_id = ${s.ws}::uuid and id = ${s.uid}::uuid`);
    if (!member.rows[0]) throw new GraphError("You are no longer a member of that workspace", 403, null, null);
    const existing = await tx.execute(sql`select id from channel_account where workspace_id = ${s.ws}::uuid
        and channel_id = 4 and external_id = ${who.id}
      order by (status <> 'disconnected') desc, id limit 1 for update`);
    let id = existing.rows[0] ? Number((existing.rows[0] as { id: number }).id) : 0;
    if (!id) {
      const made = await tx.execute(sql`insert into channel_account (workspace_id, channel_id, external_id,
          outlook_native_account_id, display_name, status, connected_by)
        values (${s.ws}::uuid, 4, ${who.id}, ${who.id}, ${address}, 'connected', ${s.uid}::uuid) returning id`);
      id = Number((made.rows[0] as { id: number }).id);
    }
    await tx.execute(sql`update channel_account set status = 'connected', display_name = ${address},
        outlook_native_account_id = ${who.id}, connected_by = ${s.uid}::uuid
      where workspace_id = ${s.ws}::uuid and id = ${id}`);
    await keepTokens(tx, cfg.secretsKey, s.ws, id, tokens);
    return id;
  });
  try {
    await subscribe(db, cfg, publicUrl, s.ws, accountId);
    return { ws: s.ws, accountId, subscribed: true, error: null };
  } catch (err) {
    if (!(err instanceof GraphError)) throw err;
    await markAccount(db, s.ws, accountId, "failing", `The mailbox could not be subscribed to: ${err.message}`);
    log.warn({ account: accountId, err: err.message }, "an Outlook subscription could not be made");
    return { ws: s.ws, accountId, subscribed: false, error: err.message };
  }
}

// ---- subscriptions

const expiry = () => new Date(Date.now() + SUBSCRIPTION_MINUTES * 60_000);

async function subscribe(db: Db, cfg: InboxConfig, publicUrl: string, ws: string, accountId: number) {
  const sub = await withToken(db, cfg, ws, accountId, (t) =>
    createSubscription(
      cfg.msGraphUrl,
      t,
      `${publicUrl}${OUTLOOK_WEBHOOK_PATH}`,
      clientStateFor(cfg.secretsKey, ws, accountId),
      expiry(),
    ),
  );
  await db.execute(sql`insert into outlook_subscription (workspace_id, channel_account_id, outlook_native_account_id,
      original_subscription_id, expires_at)
    select workspace_id, id, outlook_native_account_id, ${sub.id}, ${sub.expirationDateTime}::timestamptz
    from channel_account where workspace_id = ${ws}::uuid and id = ${accountId}`);
  return sub;
}

type SubRow = { id: number; original_subscription_id: string; expires_at: string | Date | null };

// Spec §6: an account's subscription is its newest outlook_subscription row (filtered by its
// outlook_native_account_id), checked with GET /subscriptions/{id} under the account's own token.
export async function latestSubscription(
  db: Db,
  ws: string,
  nativeAccountId: string | null | undefined,
): Promise<SubRow | null> {
  if (!nativeAccountId) throw new Error(MESSAGES.accountIdRequired);
  const res = await db.execute(sql`select id, original_subscription_id, expires_at from outlook_subscription
    where workspace_id = ${ws}::uuid and outlook_native_account_id = ${nativeAccountId}
    order by created_at desc, id desc limit 1`);
  return (res.rows[0] as SubRow | undefined) ?? null;
}

// Keeps an account's subscription alive: renewed when it lapses within a day, recreated when Graph no longer
// knows it (404: lapsed, or removed) — "Unable to get Outlook Subscription" is logged then, as spec §8 says.
export async function keepSubscription(
  db: Db,
  cfg: InboxConfig,
  publicUrl: string,
  account: { id: number; workspace_id: string; outlook_native_account_id: string | null },
  log: Log,
  force: "renew" | "recreate" | null = null,
): Promise<"kept" | "renewed" | "recreated"> {
  const ws = account.workspace_id;
  const row = await latestSubscription(db, ws, account.outlook_native_account_id);
  let gone = !row || force === "recreate";
  if (row && !gone) {
    try {
      await withToken(db, cfg, ws, account.id, (t) => getSubscription(cfg.msGraphUrl, t, row.original_subscription_id));
    } catch (err) {
      if (!(err instanceof GraphError) || err.status !== 404) throw err;
      gone = true;
    }
  }
  if (gone) {
    if (row)
      log.warn(
        { account: account.id, subscription: row.original_subscription_id },
        MESSAGES.outlookSubscriptionMissing,
      );
    await subscribe(db, cfg, publicUrl, ws, account.id);
    return "recreated";
  }
  const sub = row as SubRow;
  const left = sub.expires_at ? new Date(sub.expires_at).getTime() - Date.now() : 0;
  if (force !== "renew" && left > RENEW_WITHIN_MS) return "kept";
  try {
    const renewed = await withToken(db, cfg, ws, account.id, (t) =>
      renewSubscription(cfg.msGraphUrl, t, sub.original_subscription_id, expiry()),
    );
    await db.execute(sql`update outlook_subscription set expires_at = ${renewed.expirationDateTime}::timestamptz
      where workspace_id = ${ws}::uuid and id = ${sub.id}`);
    return "renewed";
  } catch (err) {
    if (!(err instanceof GraphError) || err.status !== 404) throw err;
    log.warn({ account: account.id, subscription: sub.original_subscription_id }, MESSAGES.outlookSubscriptionMissing);
    await subscribe(db, cfg, publicUrl, ws, account.id);
    return "recreated";
  }
}

// The scheduled job: every connected Outlook account's subscription checked, renewed or recreated. One account
// failing (Microsoft down, a refused token) is recorded on it and does not stop the others.
export async function renewOutlookSubscriptions(db: Db, cfg: InboxConfig, publicUrl: string, log: Log) {
  const res = await db.execute(sql`select id, workspace_id, outlook_native_account_id from channel_account
    where channel_id = 4 and status in ('connected', 'failing') and access_token is not null`);
  const done = { kept: 0, renewed: 0, recreated: 0, failed: 0 };
  for (const a of res.rows as Array<{ id: number; workspace_id: string; outlook_native_account_id: string }>) {
    try {
      done[await keepSubscription(db, cfg, publicUrl, { ...a, id: Number(a.id) }, log)]++;
    } catch (err) {
      done.failed++;
      if (!(err instanceof GraphError)) throw err;
      if (err.status !== 401) await markAccount(db, a.workspace_id, Number(a.id), "failing", err.message);
    }
  }
  return done;
}

// ---- disconnecting: the account's live subscriptions deleted at Graph (DELETE /subscriptions/{id}) with its
// token — refreshed first if it has expired; the new one is not kept, the tokens are forgotten right after. Called
// in the disconnect's transaction, under the account row's lock. Nothing here blocks the disconnect: a Graph that
// refuses or cannot be reached is logged, and the subscription then lapses by itself within 4230 minutes (its
// notifications already find no connected account and are refused). A deleted one — or one Graph no longer knows
// (404) — gets its expiry set to now.
export async function unsubscribeOutlook(
  tx: Tx,
  cfg: InboxConfig,
  ws: string,
  accountId: number,
  log: Log | undefined,
): Promise<{ deleted: number; failed: number }> {
  const done = { deleted: 0, failed: 0 };
  const subs = await tx.execute(sql`select id, original_subscription_id from outlook_subscription
    where workspace_id = ${ws}::uuid and channel_account_id = ${accountId}
      and (expires_at is null or expires_at > now())
    order by id`);
  const live = subs.rows as Array<{ id: number; original_subscription_id: string }>;
  if (!live.length) return done;
  const warn = (err: unknown, subscription: string | null) =>
    log?.warn(
      { account: accountId, subscription, err: err instanceof Error ? err.message : String(err) },
      "the Outlook subscription could not be deleted on disconnect; it lapses by itself",
    );
  let token: string;
  try {
    const row = (
      await tx.execute(sql`select access_token, refresh_token, token_expires_at from channel_account
        where workspace_id = ${ws}::uuid and id = ${accountId}`)
    ).rows[0] as Pick<TokenRow, "access_token" | "refresh_token" | "token_expires_at"> | undefined;
    const fresh =
      row?.access_token &&
      row.token_expires_at &&
      new Date(row.token_expires_at).getTime() > Date.now() + REFRESH_MARGIN_MS;
    if (fresh) {
      token = unseal(cfg.secretsKey, ws, accountId, row.access_token as string);
    } else if (row?.refresh_token) {
      const client = configured(cfg);
      const refresh = unseal(cfg.secretsKey, ws, accountId, row.refresh_token);
      token = (await tokenRequest(cfg.msLoginUrl, client.id, client.secret, { refresh_token: refresh })).access_token;
    } else {
      throw new GraphError("no token is kept for the account", 401, null, null);
    }
  } catch (err) {
    done.failed = live.length;
    warn(err, null);
    return done;
  }
  for (const sub of live) {
    try {
      await deleteSubscription(cfg.msGraphUrl, token, sub.original_subscription_id);
    } catch (err) {
      if (!(err instanceof GraphError) || err.status !== 404) {
        done.failed++;
        warn(err, sub.original_subscription_id);
        continue;
      }
    }
    await tx.execute(sql`update outlook_subscription set expires_at = now()
      where workspace_id = ${ws}::uuid and id = ${sub.id}`);
    done.deleted++;
  }
  if (done.deleted) log?.info({ account: accountId, deleted: done.deleted }, "Outlook subscriptions deleted");
  return done;
}

// ---- notifications

export type OutlookNotification = {
  subscriptionId?: string;
  clientState?: string | null;
  changeType?: string;
  resource?: string;
  resourceData?: { id?: string };
  lifecycleEvent?: "reauthorizationRequired" | "subscriptionRemoved" | "missed";
};

type SubAccount = Account & { outlook_native_account_id: string | null };

async function accountOfSubscription(db: Db, subscriptionId: string | undefined): Promise<SubAccount | null> {
  if (!subscriptionId) return null;
  const res = await db.execute(sql`select a.id, a.workspace_id, a.channel_id, a.external_id, a.access_token, a.status,
      a.outlook_native_account_id
    from outlook_subscription s
    join channel_account a on a.workspace_id = s.workspace_id and a.id = s.channel_account_id
    where s.original_subscription_id = ${subscriptionId} and a.channel_id = 4 and a.status <> 'disconnected'
    order by s.created_at desc limit 1`);
  const row = res.rows[0] as SubAccount | undefined;
  return row ? { ...row, id: Number(row.id) } : null;
}

// The route's check: the notifications of the batch that name a subscription of ours and carry its clientState.
export async function trustedNotifications(
  db: Db,
  cfg: InboxConfig,
  batch: OutlookNotification[],
): Promise<OutlookNotification[]> {
  const kept: OutlookNotification[] = [];
  for (const n of batch) {
    const account = await accountOfSubscription(db, n.subscriptionId);
    if (!account || typeof n.clientState !== "string") continue;
    if (same(n.clientState, clientStateFor(cfg.secretsKey, account.workspace_id, account.id))) kept.push(n);
  }
  return kept;
}

export type OutlookResult = { stored: number; duplicates: number; lifecycle: number; skipped: number };

export async function processOutlookNotifications(
  db: Db,
  cfg: InboxConfig,
  publicUrl: string,
  batch: OutlookNotification[],
  log: Log,
): Promise<OutlookResult> {
  const result: OutlookResult = { stored: 0, duplicates: 0, lifecycle: 0, skipped: 0 };
  for (const n of batch) {
    const account = await accountOfSubscription(db, n.subscriptionId);
    if (!account) {
      result.skipped++;
      continue;
    }
    const ws = account.workspace_id;
    if (n.lifecycleEvent) {
      result.lifecycle++;
      if (n.lifecycleEvent === "reauthorizationRequired") {
        await keepSubscription(db, cfg, publicUrl, account, log, "renew");
      } else if (n.lifecycleEvent === "subscriptionRemoved") {
        await keepSubscription(db, cfg, publicUrl, account, log, "recreate");
      } else if (n.lifecycleEvent === "missed") {
        const r = await deltaSync(db, cfg, account);
        result.stored += r.stored;
        result.duplicates += r.duplicates;
      }
      continue;
    }
    const mailId = n.resourceData?.id ?? n.resource?.split("/").at(-1);
    if (!mailId) {
      result.skipped++;
      continue;
    }
    if (await alreadyStored(db, ws, mailId)) {
      result.duplicates++;
      continue;
    }
    let mail: MsMail;
    try {
      mail = await withToken(db, cfg, ws, account.id, (t) => getMail(cfg.msGraphUrl, t, mailId));
    } catch (err) {
      // Deleted before we read it: nothing to keep. Anything else is retried by the queue.
      if (err instanceof GraphError && err.status === 404) {
        result.skipped++;
        continue;
      }
      throw err;
    }
    if (await storeMail(db, account, mail)) result.stored++;
    else result.duplicates++;
  }
  return result;
}

// Graph's "missed": the inbox's messages since the last one we hold (a day's margin), by delta query; each is stored
// once, so reading a few we already have costs nothing but the call.
async function deltaSync(db: Db, cfg: InboxConfig, account: SubAccount) {
  const ws = account.workspace_id;
  const since = await db.execute(sql`select coalesce(max(m.created_at), now() - interval '3 days') as at
    from conversation_message m join conversation c on c.workspace_id = m.workspace_id and c.id = m.conversation_id
    where m.workspace_id = ${ws}::uuid and c.channel_account_id = ${account.id} and m.direction = 'in'`);
  const at = new Date(new Date((since.rows[0] as { at: string | Date }).at).getTime() - 24 * 3600_000);
  const { mails } = await withToken(db, cfg, ws, account.id, (t) =>
    inboxDelta(
      cfg.msGraphUrl,
      t,
      `${cfg.msGraphUrl}/v1.0/me/mailFolders/inbox/messages/delta?$filter=receivedDateTime+ge+${at.toISOString()}`,
    ),
  );
  const r = { stored: 0, duplicates: 0 };
  for (const m of mails) {
    if (!m.id || (m as { "@removed"?: unknown })["@removed"]) continue;
    if (await alreadyStored(db, ws, m.id)) {
      r.duplicates++;
      continue;
    }
    const full = await withToken(db, cfg, ws, account.id, (t) => getMail(cfg.msGraphUrl, t, m.id));
    if (await storeMail(db, account, full)) r.stored++;
    else r.duplicates++;
  }
  return r;
}

const MAX_ATTACHMENT = 10 * 1024 * 1024;

async function storeMail(db: Db, account: Account, mail: MsMail): Promise<boolean> {
  const email = mail.from?.emailAddress?.address?.trim() || "unknown@unknown.invalid";
  const name = mail.from?.emailAddress?.name?.trim() || email;
  const subject = mail.subject?.trim() || "(no subject)";
  const text = (mail.body?.content ?? mail.bodyPreview ?? "").trim();
  const files = (mail.attachments ?? [])
    .filter((a) => a["@odata.type"] === "#microsoft.graph.fileAttachment" && a.contentBytes)
    .map((a) => ({
      fileName: a.name || "attachment",
      mimeType: (a.contentType || "application/octet-stream").split(";")[0],
      bytes: Buffer.from(a.contentBytes as string, "base64"),
    }))
    .filter((f) => f.bytes.length <= MAX_ATTACHMENT);
  return storeInbound(db, account, mail.conversationId || mail.id, name, {
    externalId: mail.id,
    kind: "text",
    body: `${subject}\n\n${text}`.slice(0, 100_000),
    at: mail.receivedDateTime ? new Date(mail.receivedDateTime) : new Date(),
    files,
    mail: { email, title: subject },
  });
}

// ---- replies (the send job's Outlook branch): a reply in the mail's own thread to the customer's last mail, with
// the message's files (a document's PDF) attached; a conversation without a mail of theirs gets a new mail to the
// contact's address. Graph answers 202 without an id, so the message gets one of ours.
export async function sendOutlookReply(
  db: Db,
  cfg: InboxConfig,
  ws: string,
  row: { id: number; conversation_id: number; account_id: number; body: string | null },
): Promise<{ id: string }> {
  const res = await db.execute(sql`select
      (select m.external_id from conversation_message m where m.workspace_id = c.workspace_id
        and m.conversation_id = c.id and m.direction = 'in' and m.external_id is not null
        order by m.created_at desc, m.id desc limit 1) as mail_id,
      c.title, k.email
    from conversation c left join contact k on k.workspace_id = c.workspace_id and k.id = c.contact_id
    where c.workspace_id = ${ws}::uuid and c.id = ${row.conversation_id}`);
  const conv = res.rows[0] as { mail_id: string | null; title: string; email: string | null } | undefined;
  const files = await db.execute(sql`select file_name, mime_type, data from conversation_attachment
    where workspace_id = ${ws}::uuid and message_id = ${row.id} order by id`);
  const attached = (files.rows as Array<{ file_name: string; mime_type: string; data: Uint8Array }>).map((f) => ({
    name: f.file_name,
    contentType: f.mime_type,
    bytes: f.data,
  }));
  const accountId = Number(row.account_id);
  if (conv?.mail_id) {
    const mailId = conv.mail_id;
    await withToken(db, cfg, ws, accountId, (t) => replyToMail(cfg.msGraphUrl, t, mailId, row.body ?? "", attached));
  } else if (conv?.email) {
    const to = conv.email;
    await withToken(db, cfg, ws, accountId, (t) =>
      sendMail(cfg.msGraphUrl, t, to, conv.title, row.body ?? "", attached),
    );
  } else {
    throw new GraphError("The conversation has no e-mail address to write to", 422, null, null);
  }
  return { id: `outlook-sent:${randomBytes(12).toString("base64url")}` };
}
