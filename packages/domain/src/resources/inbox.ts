import {
  CONVERSATION_STATUSES,
  cannedReply,
  conversation,
  conversationMessage,
  MESSAGE_DIRECTIONS,
  MESSAGE_KINDS,
  MESSAGE_STATUSES,
} from "../db/inbox-schema.ts";
import { defineResource } from "./define.ts";
import { auditFields, f, idField } from "./fields.ts";
import type { ResourceDef } from "./types.ts";

// Issue 24 "Inbox" (Premium, communication channels): conversations and their messages are read through /rest/v1
// (and so through realtime's postgres_changes, which reads a changed row as the member would) and written only by
// the inbox's commands and webhooks. A salesperson reads the conversations assigned to them and the unassigned ones
// (ownerColumn assignee_id with unassignedIsOwn); managers read all. Channel accounts are no resource: their row
// holds the sealed token, and the inbox's commands answer them without it.

const ro = { readOnly: true, form: false };

export const conversationResource = defineResource({
  name: "conversation",
  title: "Conversation",
  plural: "Conversations",
  route: null,
  scope: "tenant",
  feature: "communication_channels",
  actions: ["read"],
  ownerColumn: "assignee_id",
  ownerHolds: true,
  unassignedIsOwn: true,
  table: conversation,
  display: "title",
  search: ["title", "last_message_preview"],
  defaultOrder: "last_message_at.desc,id.desc",
  keptCount: false,
  fields: [
    idField(),
    f.name("title", "Title", { ...ro, list: true }),
    f.ref("channel_account_id", "Channel account", "channel_account", "display_name", ro),
    f.text("external_thread_id", "Customer id", ro),
    f.ref("contact_id", "Contact", "contact", "name", ro),
    f.ref("company_id", "Company", "company", "name", ro),
    f.status("status", "Status", CONVERSATION_STATUSES, { ...ro, list: true }),
    f.ref("assignee_id", "Assignee", "user", "name", ro),
    f.datetime("last_message_at", "Last message", { ...ro, list: true }),
    f.datetime("last_inbound_at", "Last customer message", ro),
    f.text("last_message_preview", "Preview", ro),
    f.integer("last_message_id", "Last message id", ro),
    f.integer("unread", "Unread", ro),
    f.tags("labels", "Labels", ro),
    ...auditFields,
  ],
  relations: {
    messages: { resource: "conversation_message", kind: "many", column: "conversation_id", references: "id" },
    contact: { resource: "contact", kind: "one", column: "contact_id", references: "id" },
    company: { resource: "company", kind: "one", column: "company_id", references: "id" },
  },
});

export const conversationMessageResource = defineResource({
  name: "conversation_message",
  title: "Message",
  plural: "Messages",
  route: null,
  scope: "tenant",
  feature: "communication_channels",
  actions: ["read"],
  permissionOf: "conversation",
  ownerColumn: "assignee_id",
  ownerParent: { table: "conversation", column: "conversation_id" },
  ownerHolds: true,
  unassignedIsOwn: true,
  table: conversationMessage,
  display: "id",
  search: ["body"],
  defaultOrder: "id.asc",
  keptCount: false,
  fields: [
    idField(),
    f.ref("conversation_id", "Conversation", "conversation", "title", ro),
    f.enum("direction", "Direction", MESSAGE_DIRECTIONS, ro),
    f.enum("kind", "Kind", MESSAGE_KINDS, ro),
    f.textarea("body", "Text", ro),
    f.text("external_id", "Meta id", ro),
    f.status("status", "Status", MESSAGE_STATUSES, ro),
    f.text("reply_to_external_id", "Reply to", ro),
    f.text("reaction", "Reaction", ro),
    f.text("template_name", "Template", ro),
    f.text("document_type", "Document type", ro),
    f.integer("document_id", "Document", ro),
    f.text("error", "Error", ro),
    f.ref("author_id", "Author", "user", "name", ro),
    f.datetime("sent_at", "Sent", ro),
    f.datetime("delivered_at", "Delivered", ro),
    f.datetime("read_at", "Read", ro),
    ...auditFields,
  ],
  relations: {
    conversation: { resource: "conversation", kind: "one", column: "conversation_id", references: "id" },
  },
});

export const cannedReplyResource = defineResource({
  name: "canned_reply",
  title: "Canned reply",
  plural: "Canned replies",
  route: null,
  scope: "tenant",
  feature: "communication_channels",
  table: cannedReply,
  display: "title",
  search: ["title", "body"],
  defaultOrder: "title.asc",
  fields: [
    idField(),
    f.name("title", "Title", { required: true, list: true }),
    f.textarea("body", "Text", { required: true, maxLength: 4096, list: true }),
    ...auditFields,
  ],
  relations: {},
  checks: { canned_reply_title_key: { field: "title", message: "A canned reply with this title already exists" } },
});

export const INBOX_RESOURCES: readonly ResourceDef[] = [
  conversationResource,
  conversationMessageResource,
  cannedReplyResource,
];
