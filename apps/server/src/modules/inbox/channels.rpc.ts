import { COMMANDS } from "@workmetrics/domain/commands";
import { CHANNEL_IDS, type ChannelAccountView } from "@workmetrics/domain/commands/inbox";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { checkToken, GraphError } from "./graph.ts";
import { authorizeUrl } from "./microsoft.ts";
import { pkceChallenge, pkceVerifier, redirectUri, signState, unsubscribeOutlook } from "./outlook.ts";
import { seal } from "./secrets.ts";

// Issue 24 "Channels" (/dashboard/cca): connecting a WhatsApp number, Facebook page or Instagram account with the id
// Meta gives and a long-lived token — checked against the Graph API before anything is kept —, listing the accounts
// with their state, and disconnecting one (its token deleted; its webhooks find no account and are dropped; an Outlook mailbox's Graph
// subscription deleted). No
// answer carries a token: VIEW names the columns, and has_token only says whether one is kept.

const VIEW = sql`id, channel_id, external_id, display_name, status, last_error, last_error_at,
  access_token is not null as has_token, created_at, updated_at`;

const fail = (status: number, message: string, field?: string) =>
  new RestError(
    status,
    status === 422 ? "validation_failed" : "PGRST116",
    message,
    field ? [{ field, message }] : null,
  );

const uniqueViolation = (err: unknown): boolean => {
  for (let e: unknown = err; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
};

async function view(tx: Tx, ws: string, id: number): Promise<ChannelAccountView> {
  const res = await tx.execute(
    sql`select ${VIEW} from channel_account where workspace_id = ${ws}::uuid and id = ${id}`,
  );
  const row = res.rows[0] as ChannelAccountView | undefined;
  if (!row) throw fail(404, `There is no channel account ${id} in this workspace`);
  return row;
}

export const channelConnect = implement(COMMANDS.channel_connect, {
  run: async (tx, args, caller, deps) => {
    const ws = caller.workspaceId as string;
    if (!deps.inbox) throw new RestError(503, "not_configured", "Channels cannot be connected here");
    const channelId = CHANNEL_IDS[args.channel];
    let name: string | null;
    try {
      name = (await checkToken(deps.inbox.metaGraphUrl, args.channel, args.external_id, args.access_token)).name;
    } catch (err) {
      if (err instanceof GraphError) throw fail(422, `The token was not accepted: ${err.message}`, "access_token");
      throw err;
    }
    const displayName = args.display_name || name;
    const key = deps.inbox.secretsKey;
    // In a savepoint: a number live in another workspace (which this one cannot see) breaks the unique key.
    let id = 0;
    try {
      await tx.transaction(async (sp) => {
        const existing = await sp.execute(sql`select id from channel_account where workspace_id = ${ws}::uuid
          and channel_id = ${channelId} and external_id = ${args.external_id}
          order by (status <> 'disconnected') desc, id limit 1 for update`);
        if (existing.rows[0]) {
          id = Number((existing.rows[0] as { id: number }).id);
        } else {
          const made = await sp.execute(sql`insert into channel_account
              (workspace_id, channel_id, external_id, display_name, status, connected_by)
            values (${ws}::uuid, ${channelId}, ${args.external_id}, ${displayName}, 'connected', ${caller.userId}::uuid)
            returning id`);
          id = Number((made.rows[0] as { id: number }).id);
        }
        // Sealed with the account's own id in the associated data: it opens for this account only.
        const sealed = seal(key, ws, id, args.access_token);
        // A pasted token (a page's, Facebook Login) does not run out: no expiry, so an Instagram account replies
        // through Facebook's Graph API even if it was first connected through Instagram's login (instagram.ts).
        await sp.execute(sql`update channel_account set access_token = ${sealed}, display_name = ${displayName},
            token_expires_at = null,
            status = 'connected', last_error = null, last_error_at = null, connected_by = ${caller.userId}::uuid,
            updated_at = now()
          where workspace_id = ${ws}::uuid and id = ${id}`);
      });
    } catch (err) {
      if (uniqueViolation(err)) {
        throw fail(
          409,
          "This account is already connected to another workspace; disconnect it there first",
          "external_id",
        );
      }
      throw err;
    }
    return view(tx, ws, id);
  },
});

export const channelDisconnect = implement(COMMANDS.channel_disconnect, {
  run: async (tx, args, caller, deps) => {
    const ws = caller.workspaceId as string;
    await view(tx, ws, args.id);
    const locked = await tx.execute(sql`select channel_id from channel_account
      where workspace_id = ${ws}::uuid and id = ${args.id} for update`);
    // Outlook: the Graph subscription is deleted first, with the token about to be forgotten (a failure is logged
    // and the subscription lapses by itself). Meta's webhooks are the app's, not the account's: nothing to delete.
    if (Number((locked.rows[0] as { channel_id: number }).channel_id) === CHANNEL_IDS.sales_email && deps.inbox) {
      await unsubscribeOutlook(tx, deps.inbox, ws, args.id, deps.log);
    }
    await tx.execute(sql`update channel_account set access_token = null, refresh_token = null,
        status = 'disconnected', updated_at = now()
      where workspace_id = ${ws}::uuid and id = ${args.id}`);
    return view(tx, ws, args.id);
  },
});

export const channelAccounts = implement(COMMANDS.channel_accounts, {
  run: async (tx, _args, caller) => {
    const res = await tx.execute(sql`select ${VIEW} from channel_account
      where workspace_id = ${caller.workspaceId}::uuid order by (status = 'disconnected'), channel_id, id`);
    return res.rows as ChannelAccountView[];
  },
});

// Outlook: the Microsoft sign-in address, with a state signed for this workspace and user (ten minutes) and the
// PKCE challenge of a verifier derived from it. The return (/outlook/callback) does the rest.
export const outlookConnect = implement(COMMANDS.outlook_connect, {
  run: async (_tx, _args, caller, deps) => {
    const cfg = deps.inbox;
    if (!cfg?.msClientId || !cfg.msClientSecret) {
      throw new RestError(
        503,
        "not_configured",
        "Outlook is not set up on this server (MS_CLIENT_ID and MS_CLIENT_SECRET)",
      );
    }
    const state = signState(cfg.secretsKey, caller.workspaceId as string, caller.userId as string);
    const challenge = pkceChallenge(pkceVerifier(cfg.secretsKey, state));
    return { url: authorizeUrl(cfg.msLoginUrl, cfg.msClientId, redirectUri(deps.links.publicUrl), state, challenge) };
  },
});
