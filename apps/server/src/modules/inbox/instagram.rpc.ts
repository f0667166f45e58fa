import { COMMANDS } from "@workmetrics/domain/commands";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { instagramAuthorizeUrl, instagramConfigured, signInstagramState } from "./instagram.ts";

// Instagram's business login: the address of Instagram's sign-in, with a state signed for this workspace and user
// (ten minutes). The return (/instagram/callback, instagram.route.ts) does the rest.
export const instagramConnect = implement(COMMANDS.instagram_connect, {
  run: async (_tx, _args, caller, deps) => {
    const cfg = deps.inbox;
    const app = cfg && instagramConfigured(cfg);
    if (!cfg || !app) {
      throw new RestError(
        503,
        "not_configured",
        "Instagram's business login is not set up on this server (IG_APP_ID and IG_APP_SECRET); connect the account with its token below",
      );
    }
    const state = signInstagramState(cfg.secretsKey, caller.workspaceId as string, caller.userId as string);
    return { url: instagramAuthorizeUrl(cfg, app.id, deps.links.publicUrl, state) };
  },
});

// Which sign-ins the channels page may offer: those this server is set up for.
export const channelSignIns = implement(COMMANDS.channel_sign_ins, {
  run: async (_tx, _args, _caller, deps) => ({
    outlook: Boolean(deps.inbox?.msClientId && deps.inbox.msClientSecret),
    instagram: Boolean(deps.inbox && instagramConfigured(deps.inbox)),
  }),
});
