import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import { channelAccounts, channelConnect, channelDisconnect, outlookConnect } from "./channels.rpc.ts";
import {
  conversationAssign,
  conversationLink,
  conversationList,
  conversationNote,
  conversationQuotation,
  conversationReply,
  conversationSetStatus,
  conversationThread,
  documentConversations,
} from "./conversations.rpc.ts";
import { channelSignIns, instagramConnect } from "./instagram.rpc.ts";
import { onedriveSave } from "./onedrive.ts";

// Issue 24 "Inbox" (Premium): channel accounts and conversations. The webhooks (webhook.route.ts) and the jobs
// (intake.ts, send.ts) are registered by the app, which holds their configuration and queue.
export function registerInbox(): void {
  registerRpc(
    channelConnect,
    channelDisconnect,
    channelAccounts,
    outlookConnect,
    instagramConnect,
    channelSignIns,
    onedriveSave,
    conversationList,
    conversationThread,
    conversationReply,
    conversationNote,
    conversationAssign,
    conversationSetStatus,
    conversationLink,
    documentConversations,
    conversationQuotation,
  );
}
