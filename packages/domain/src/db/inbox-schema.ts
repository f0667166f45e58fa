import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { sameWorkspace, tenantColumns, tenantKeys, tenantPolicy, timestamps } from "./columns.ts";
import { company } from "./company-schema.ts";
import { contact } from "./master-schema.ts";
import { workspace } from "./platform-schema.ts";

// Issue 24 "Inbox" (Premium, communication channels; DESIGN §2.3.2): the channel accounts a workspace connects
// (spec §3 channel_account: WhatsApp 1, Facebook 2, Instagram 3, Sales Email 4), Outlook's subscriptions (spec §3),
// and the conversations with their messages. A token is kept only sealed (AES-256-GCM with SECRETS_KEY, the
// workspace and account in the associated data: platform/secrets) and no API returns it. A message's external id
// (WhatsApp's wamid) is unique in its workspace, so a redelivered webhook never stores a second message.

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

export const CHANNEL_ACCOUNT_STATUSES = ["connected", "needs_reauth", "failing", "disconnected"] as const;
export type ChannelAccountStatus = (typeof CHANNEL_ACCOUNT_STATUSES)[number];
export const CONVERSATION_STATUSES = ["open", "pending", "resolved"] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];
export const MESSAGE_DIRECTIONS = ["in", "out", "note"] as const;
export const MESSAGE_KINDS = [
  "text",
  "image",
  "document",
  "audio",
  "video",
  "sticker",
  "location",
  "reaction",
  "template",
  "unsupported",
] as const;
export const MESSAGE_STATUSES = ["received", "queued", "sent", "delivered", "read", "failed", "note"] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const channelAccount = pgTable(
  "channel_account",
  {
    ...tenantColumns,
    channelId: integer("channel_id").notNull(), // spec §3: 1 WhatsApp, 2 Facebook, 3 Instagram, 4 Sales Email
    externalId: text("external_id"), // WhatsApp's phone number id, the Facebook page id, the Instagram id
    displayName: text("display_name"),
    outlookNativeAccountId: text("outlook_native_account_id"), // spec §3: the Outlook mailbox's account id
    accessToken: text("access_token"), // sealed (v1.iv.tag.ciphertext); null once disconnected
    refreshToken: text("refresh_token"), // sealed; Microsoft's, rotated on every refresh
    tokenExpiresAt: timestamp("token_expires_at", { withTimezone: true }), // Microsoft's access token: refreshed before
    status: text("status", { enum: CHANNEL_ACCOUNT_STATUSES }).notNull().default("connected"),
    lastError: text("last_error"),
    lastErrorAt: timestamp("last_error_at", { withTimezone: true }),
    connectedBy: uuid("connected_by"),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("channel_account", t, workspace),
    // One live account per Meta id across every workspace: a webhook names the id, and finds one workspace.
    uniqueIndex("channel_account_external_key")
      .on(t.channelId, t.externalId)
      .where(sql`${t.status} <> 'disconnected' and ${t.externalId} is not null`),
    check("channel_account_channel", sql`${t.channelId} between 1 and 4`),
  ],
).enableRLS();

export const outlookSubscription = pgTable(
  "outlook_subscription",
  {
    ...tenantColumns,
    channelAccountId: bigint("channel_account_id", { mode: "number" }),
    outlookNativeAccountId: text("outlook_native_account_id").notNull(),
    originalSubscriptionId: text("original_subscription_id").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...tenantKeys("outlook_subscription", t, workspace),
    index("outlook_subscription_account_idx").on(t.outlookNativeAccountId, t.createdAt),
    sameWorkspace("outlook_subscription_account_fk", [t.workspaceId, t.channelAccountId], channelAccount, "cascade"),
  ],
).enableRLS();

export const conversation = pgTable(
  "conversation",
  {
    ...tenantColumns,
    channelAccountId: bigint("channel_account_id", { mode: "number" }).notNull(),
    externalThreadId: text("external_thread_id").notNull(), // the customer's WhatsApp number (wa_id), PSID, IGSID
    title: text("title").notNull(), // the sender's profile name or number
    contactId: bigint("contact_id", { mode: "number" }),
    companyId: bigint("company_id", { mode: "number" }),
    status: text("status", { enum: CONVERSATION_STATUSES }).notNull().default("open"),
    assigneeId: uuid("assignee_id"),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }),
    lastInboundAt: timestamp("last_inbound_at", { withTimezone: true }), // Meta's 24-hour window starts here
    lastMessagePreview: text("last_message_preview"),
    lastMessageId: bigint("last_message_id", { mode: "number" }),
    unread: integer("unread").notNull().default(0),
    labels: text("labels").array().notNull().default(sql`'{}'::text[]`),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("conversation", t, workspace),
    uniqueIndex("conversation_thread_key").on(t.workspaceId, t.channelAccountId, t.externalThreadId),
    index("conversation_recent_idx").on(t.workspaceId, t.lastMessageAt, t.id),
    index("conversation_assignee_idx").on(t.workspaceId, t.assigneeId, t.lastMessageAt),
    index("conversation_company_idx").on(t.workspaceId, t.companyId),
    sameWorkspace("conversation_account_fk", [t.workspaceId, t.channelAccountId], channelAccount),
    sameWorkspace("conversation_contact_fk", [t.workspaceId, t.contactId], contact),
    sameWorkspace("conversation_company_fk", [t.workspaceId, t.companyId], company),
  ],
).enableRLS();

export const conversationMessage = pgTable(
  "conversation_message",
  {
    ...tenantColumns,
    conversationId: bigint("conversation_id", { mode: "number" }).notNull(),
    direction: text("direction", { enum: MESSAGE_DIRECTIONS }).notNull(),
    kind: text("kind", { enum: MESSAGE_KINDS }).notNull().default("text"),
    body: text("body"),
    externalId: text("external_id"), // WhatsApp's wamid
    status: text("status", { enum: MESSAGE_STATUSES }).notNull(),
    replyToExternalId: text("reply_to_external_id"), // a reply's context.id
    reaction: text("reaction"), // an emoji, on the message reply_to_external_id names
    location: jsonb("location"), // {latitude, longitude, name?, address?}
    templateName: text("template_name"),
    documentType: text("document_type"), // a document's PDF sent into the conversation
    documentId: bigint("document_id", { mode: "number" }),
    error: text("error"),
    authorId: uuid("author_id"), // who wrote an outgoing message or note
    sentAt: timestamp("sent_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    readAt: timestamp("read_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("conversation_message", t, workspace),
    uniqueIndex("conversation_message_external_key")
      .on(t.workspaceId, t.externalId)
      .where(sql`${t.externalId} is not null`),
    index("conversation_message_thread_idx").on(t.workspaceId, t.conversationId, t.id),
    sameWorkspace("conversation_message_conversation_fk", [t.workspaceId, t.conversationId], conversation, "cascade"),
  ],
).enableRLS();

// A message's file, copied from Meta at once (its URLs expire) or a document's PDF sent out.
export const conversationAttachment = pgTable(
  "conversation_attachment",
  {
    ...tenantColumns,
    messageId: bigint("message_id", { mode: "number" }).notNull(),
    fileName: text("file_name").notNull(),
    mimeType: text("mime_type").notNull(),
    size: integer("size").notNull(),
    data: bytea("data").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...tenantKeys("conversation_attachment", t, workspace),
    index("conversation_attachment_message_idx").on(t.workspaceId, t.messageId),
    sameWorkspace("conversation_attachment_message_fk", [t.workspaceId, t.messageId], conversationMessage, "cascade"),
  ],
).enableRLS();

// A delivery or read status that arrived before the send that it is about had committed its wamid: kept here, and
// applied by the send when it records the wamid (both under the same advisory lock, so neither misses the other).
export const conversationEarlyStatus = pgTable(
  "conversation_early_status",
  {
    workspaceId: uuid("workspace_id").notNull(),
    externalId: text("external_id").notNull(),
    status: text("status", { enum: MESSAGE_STATUSES }).notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    error: text("error"),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.externalId, t.status] }), tenantPolicy("conversation_early_status")],
).enableRLS();

// A document the conversation led to (a quotation made from it, an invoice sent into it).
export const conversationLink = pgTable(
  "conversation_link",
  {
    ...tenantColumns,
    conversationId: bigint("conversation_id", { mode: "number" }).notNull(),
    documentType: text("document_type").notNull(),
    documentId: bigint("document_id", { mode: "number" }).notNull(),
    linkedBy: uuid("linked_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...tenantKeys("conversation_link", t, workspace),
    uniqueIndex("conversation_link_key").on(t.workspaceId, t.conversationId, t.documentType, t.documentId),
    index("conversation_link_document_idx").on(t.workspaceId, t.documentType, t.documentId),
    sameWorkspace("conversation_link_conversation_fk", [t.workspaceId, t.conversationId], conversation, "cascade"),
  ],
).enableRLS();

export const cannedReply = pgTable(
  "canned_reply",
  {
    ...tenantColumns,
    title: text("title").notNull(),
    body: text("body").notNull(),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("canned_reply", t, workspace),
    uniqueIndex("canned_reply_title_key").on(t.workspaceId, t.title),
  ],
).enableRLS();
