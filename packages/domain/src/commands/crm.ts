import { z } from "zod";
import { defineCommand, id, instant } from "./define.ts";

// Memos addressed to the signed-in user (audience "all", or one of the roles listed) with their read state, and the
// read receipt a reader leaves. Open to every member: a memo is for its audience, whatever their permissions.

export const memoInbox = defineCommand({
  name: "memo_inbox",
  args: z.object({ limit: z.number().int().min(1).max(200).default(50) }),
  result: z.array(
    z.object({
      id: z.number(),
      title: z.string(),
      body: z.string(),
      pinned: z.boolean(),
      published_at: z.string(),
      audience: z.string(),
      read_at: z.string().nullable(),
      read: z.boolean(),
    }),
  ),
  permission: null,
});

export const memoMarkRead = defineCommand({
  name: "memo_mark_read",
  args: z.object({ memo_id: id }),
  result: z.object({ memo_id: z.number(), read_at: instant }),
  permission: null,
});

export const CRM_COMMANDS = [memoInbox, memoMarkRead] as const;
