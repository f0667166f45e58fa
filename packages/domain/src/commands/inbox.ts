import { z } from "zod";
import { CHANNEL_ACCOUNT_STATUSES, CONVERSATION_STATUSES } from "../db/inbox-schema.ts";
import { dbId, defineCommand, id, instant } from "./define.ts";

// Issue 24 "Inbox" (Premium: communication channels; DESIGN §2.3.2). Channel accounts are connected and
// disconnected by whoever holds channel_account.create / .delete (owners and admins); conversations are read by
// managers whole and by salespeople when theirs or unassigned (conversation.read, else scope "own"), answered with
// conversation.reply and taken or handed over with conversation.assign. A token goes in, never out.

export const META_CHANNELS = ["whatsapp", "facebook", "instagram"] as const;
export type MetaChannel = (typeof META_CHANNELS)[number];
// Spec §3's channel ids.
export const CHANNEL_IDS: Record<MetaChannel | "sales_email", number> = {
  whatsapp: 1,
  facebook: 2,
  instagram: 3,
  sales_email: 4,
};

export const channelAccountView = z.object({
  id: dbId,
  channel_id: z.number(),
  external_id: z.string().nullable(),
  display_name: z.string().nullable(),
  status: z.enum(CHANNEL_ACCOUNT_STATUSES),
  last_error: z.string().nullable(),
  last_error_at: instant.nullable(),
  has_token: z.boolean(),
  created_at: instant,
  updated_at: instant,
});
export type ChannelAccountView = z.output<typeof channelAccountView>;

export const channelConnect = defineCommand({
  name: "channel_connect",
  args: z.object({
    channel: z.enum(META_CHANNELS, { error: "Choose WhatsApp, Facebook or Instagram" }),
    external_id: z
      .string({ error: "Give the id Meta shows for the account" })
      .trim()
      .regex(/^\d{5,30}$/, "The id is the number Meta shows for the account (digits only)"),
    access_token: z
      .string({ error: "Paste the account's long-lived access token" })
      .trim()
      .min(20, "That is too short for a Meta access token")
      .max(1000, "That is too long for a Meta access token")
      .regex(/^\S+$/, "A token has no spaces"),
    display_name: z.string().trim().max(120, "At most 120 characters").nullish(),
  }),
  result: channelAccountView,
  permission: "channel_account.create",
  does: "connect channel accounts",
  feature: "communication_channels",
});

export const channelDisconnect = defineCommand({
  name: "channel_disconnect",
  args: z.object({ id }),
  result: channelAccountView,
  permission: "channel_account.delete",
  does: "disconnect channel accounts",
  feature: "communication_channels",
});

export const channelAccounts = defineCommand({
  name: "channel_accounts",
  args: z.object({}).optional(),
  result: z.array(channelAccountView),
  permission: "channel_account.read",
  does: "read channel accounts",
  feature: "communication_channels",
});

// Outlook (channel 4, Sales Email) connects through Microsoft's OAuth: this answers the sign-in address to send the
// browser to; Microsoft returns it to /outlook/callback, which keeps the mailbox (DESIGN §2.3.2).
export const outlookConnect = defineCommand({
  name: "outlook_connect",
  args: z.object({}).optional(),
  result: z.object({ url: z.string() }),
  permission: "channel_account.create",
  does: "connect channel accounts",
  feature: "communication_channels",
});

// Which sign-ins this server is set up for (Outlook: MS_CLIENT_ID and MS_CLIENT_SECRET; Instagram's business login:
// IG_APP_ID and IG_APP_SECRET), so the channels page offers only those that can work.
export const channelSignIns = defineCommand({
  name: "channel_sign_ins",
  args: z.object({}).optional(),
  result: z.object({ outlook: z.boolean(), instagram: z.boolean() }),
  permission: "channel_account.create",
  does: "connect channel accounts",
  feature: "communication_channels",
});

// Instagram's business login: the address of Instagram's sign-in to send the browser to; Instagram returns it to
// /instagram/callback (spec §2's public /instagram prefix), which keeps the account as channel 3.
export const instagramConnect = defineCommand({
  name: "instagram_connect",
  args: z.object({}).optional(),
  result: z.object({ url: z.string() }),
  permission: "channel_account.create",
  does: "connect channel accounts",
  feature: "communication_channels",
});

// OneDrive (Premium): a document's PDF saved into a folder of the connected Outlook account's OneDrive. The upload
// runs in a job (a simple PUT under 4 MB, an upload session above); its link is kept in the document's history.
export const onedriveSave = defineCommand({
  name: "onedrive_save",
  args: z.object({
    document_type: z.string().regex(/^[a-z_]{2,40}$/, "Choose a document"),
    document_id: id,
    folder: z
      .string({ error: "Give the OneDrive folder" })
      .trim()
      .min(1, "Give the OneDrive folder")
      .max(200, "At most 200 characters")
      .regex(/^[^\\:*?"<>|#%]+$/, 'A folder name cannot hold \\ : * ? " < > | # %')
      .refine((v) => !v.split("/").some((p) => p === ".." || p === "."), "A folder cannot contain . or .."),
  }),
  result: z.object({ queued: z.boolean(), path: z.string() }),
  permission: null, // reading the document (checked when it is printed)
  does: "save documents to OneDrive",
  feature: "onedrive",
});

export const conversationRow = z.object({
  id: dbId,
  channel_id: z.number(),
  channel_account_id: dbId,
  title: z.string(),
  external_thread_id: z.string(),
  contact_id: dbId.nullable(),
  contact_name: z.string().nullable(),
  company_id: dbId.nullable(),
  company_name: z.string().nullable(),
  status: z.enum(CONVERSATION_STATUSES),
  assignee_id: z.string().nullable(),
  assignee_name: z.string().nullable(),
  last_message_at: instant.nullable(),
  last_inbound_at: instant.nullable(),
  last_message_preview: z.string().nullable(),
  last_message_id: dbId.nullable(),
  unread: z.number(),
  labels: z.array(z.string()),
});
export type ConversationRow = z.output<typeof conversationRow>;

export const conversationList = defineCommand({
  name: "conversation_list",
  args: z
    .object({
      channel_id: z.number().int().min(1).max(4).nullish(),
      status: z.enum(CONVERSATION_STATUSES).nullish(),
      mine: z.boolean().optional(),
      unassigned: z.boolean().optional(),
      company_id: id.nullish(),
      search: z.string().trim().max(100).nullish(),
      before: z.string().nullish(), // keyset: the last row's "last_message_at|id"
      limit: z.number().int().min(1).max(200).default(50),
    })
    .default({ limit: 50 }),
  result: z.object({ rows: z.array(conversationRow), next: z.string().nullable() }),
  permission: null, // conversation.read: all; else one's own and unassigned (CONVERSATION_READ, decided inside)
  does: "read conversations",
  feature: "communication_channels",
});

export const messageView = z.object({
  id: dbId,
  direction: z.enum(["in", "out", "note"]),
  kind: z.string(),
  body: z.string().nullable(),
  status: z.string(),
  external_id: z.string().nullable(),
  reply_to_external_id: z.string().nullable(),
  reply_to_body: z.string().nullable(),
  reaction: z.string().nullable(),
  location: z.unknown().nullable(),
  template_name: z.string().nullable(),
  document_type: z.string().nullable(),
  document_id: dbId.nullable(),
  error: z.string().nullable(),
  author_name: z.string().nullable(),
  attachment: z.object({ id: dbId, file_name: z.string(), mime_type: z.string(), size: z.number() }).nullable(),
  created_at: instant,
  sent_at: instant.nullable(),
  delivered_at: instant.nullable(),
  read_at: instant.nullable(),
});
export type MessageView = z.output<typeof messageView>;

export const openDocument = z.object({
  type: z.string(),
  id: dbId,
  number: z.string().nullable(),
  status: z.string(),
  total: z.string().nullable(),
  balance: z.string().nullable(),
  date: z.string().nullable(),
  linked: z.boolean(),
});
export type OpenDocument = z.output<typeof openDocument>;

export const conversationThread = defineCommand({
  name: "conversation_thread",
  args: z.object({ conversation_id: id }),
  result: z.object({
    conversation: conversationRow,
    messages: z.array(messageView),
    window_open: z.boolean(), // Meta's 24 hours since the customer's last message
    window_closes_at: instant.nullable(),
    contact: z
      .object({ id: dbId, name: z.string(), phone: z.string().nullable(), email: z.string().nullable() })
      .nullable(),
    company: z.object({ id: dbId, name: z.string() }).nullable(),
    documents: z.array(openDocument), // the company's open quotations, orders and unpaid invoices, and linked ones
    can_reply: z.boolean(),
    can_assign_others: z.boolean(),
    // The channel account's state: replies go out only while it is connected (or failing, retried).
    channel_status: z.enum(CHANNEL_ACCOUNT_STATUSES),
    channel_name: z.string().nullable(),
  }),
  permission: null, // conversation.read: all; else one's own and unassigned (CONVERSATION_READ, decided inside)
  does: "read conversations",
  feature: "communication_channels",
});

export const conversationReply = defineCommand({
  name: "conversation_reply",
  args: z
    .object({
      conversation_id: id,
      body: z.string().trim().max(4096, "A WhatsApp message holds at most 4096 characters").nullish(),
      template: z
        .object({
          name: z
            .string()
            .trim()
            .regex(/^[a-z0-9_]{1,512}$/, "A template's name is lower-case letters, digits and _"),
          language: z.string().trim().min(2).max(15).default("en"),
          params: z.array(z.string().trim().min(1, "Fill in every parameter").max(1000)).max(20).default([]),
        })
        .nullish(),
      document: z.object({ type: z.string().regex(/^[a-z_]{2,40}$/), id }).nullish(),
      // The newest message the writer had seen: a newer customer message makes the reply refused with a warning.
      seen_message_id: id.nullish(),
    })
    .refine((v) => Boolean(v.body) || Boolean(v.template) || Boolean(v.document), {
      message: "Write a message, choose a template or attach a document",
      path: ["body"],
    }),
  result: messageView,
  permission: "conversation.reply",
  does: "reply to conversations",
  feature: "communication_channels",
});

export const conversationNote = defineCommand({
  name: "conversation_note",
  args: z.object({
    conversation_id: id,
    body: z.string({ error: "Write the note" }).trim().min(1, "Write the note").max(4000, "At most 4000 characters"),
  }),
  result: messageView,
  permission: "conversation.reply",
  does: "write notes on conversations",
  feature: "communication_channels",
});

export const conversationAssign = defineCommand({
  name: "conversation_assign",
  args: z.object({
    conversation_id: id,
    user_id: z.string().uuid("Choose a member").nullable(), // null: unassign
    // Who the caller saw it assigned to (null: unassigned); another assignee since → refused, naming them.
    expected_assignee_id: z.string().uuid().nullish(),
  }),
  result: conversationRow,
  permission: "conversation.assign",
  does: "assign conversations",
  feature: "communication_channels",
});

export const conversationSetStatus = defineCommand({
  name: "conversation_set_status",
  args: z.object({
    conversation_id: id,
    status: z.enum(CONVERSATION_STATUSES, { error: "Choose open, pending or resolved" }),
    labels: z.array(z.string().trim().min(1).max(40)).max(20).optional(),
  }),
  result: conversationRow,
  permission: "conversation.reply",
  does: "change conversations",
  feature: "communication_channels",
});

export const conversationLink = defineCommand({
  name: "conversation_link",
  args: z.object({
    conversation_id: id,
    document_type: z.enum(["quotation", "sales_order", "invoice", "delivery_order", "receipt", "credit_note"], {
      error: "Link a quotation, sales order, invoice, delivery order, receipt or credit note",
    }),
    document_id: id,
  }),
  result: z.object({ conversation_id: dbId, document_type: z.string(), document_id: dbId }),
  permission: "conversation.reply",
  does: "link documents to conversations",
  feature: "communication_channels",
});

export const documentConversations = defineCommand({
  name: "document_conversations",
  args: z.object({ document_type: z.string().regex(/^[a-z_]{2,40}$/), document_id: id }),
  result: z.array(conversationRow),
  permission: null, // conversation.read: all; else one's own and unassigned (CONVERSATION_READ, decided inside)
  does: "read conversations",
  feature: "communication_channels",
});

// "Create quotation" from a conversation: a draft for the conversation's company and contact with the products the
// customer named in their recent messages (by SKU or name, with the quantity written before it), linked to it.
export const conversationQuotation = defineCommand({
  name: "conversation_quotation",
  args: z.object({ conversation_id: id }),
  result: z.object({ id: dbId, lines: z.number(), matched: z.array(z.string()) }),
  permission: "quotation.create",
  does: "create quotations",
  feature: "communication_channels",
});

// Reading conversations: everyone's with conversation.read; one's own and the unassigned ones for a member who
// holds another conversation permission (a salesperson answering them).
export const CONVERSATION_READ = {
  audience: "member",
  permission: "conversation.read",
  does: "read conversations",
  feature: "communication_channels",
  own: true,
  ownWith: "conversation",
} as const;

export const INBOX_COMMANDS = [
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
] as const;
