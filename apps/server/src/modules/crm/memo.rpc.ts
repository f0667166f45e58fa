import { COMMANDS, type CommandAnswer } from "@workmetrics/domain/commands";
import { sql } from "drizzle-orm";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";

// Memos addressed to the signed-in user (audience "all", or one of the roles listed) with their read state, and
// the read receipt a reader leaves. Open to every member: a memo is for its audience, whatever their permissions.

export const memoInbox = implement(COMMANDS.memo_inbox, {
  async run(tx, args, caller) {
    const res = await tx.execute(sql`
      select coalesce(json_agg(x order by x.pinned desc, x.published_at desc), '[]'::json) as memos from (
        select m.id, m.title, m.body, m.pinned, m.published_at, m.audience,
               r.read_at, (r.read_at is not null) as read
        from memo m
        join "user" u on u.workspace_id = m.workspace_id and u.id = ${caller.userId}::uuid
        left join memo_read r on r.workspace_id = m.workspace_id and r.memo_id = m.id and r.user_id = u.id
        where m.workspace_id = ${caller.workspaceId}::uuid and m.published_at is not null and m.published_at <= now()
          and (m.audience = 'all' or u.workspace_role_id = any(m.audience_role_ids))
        order by m.pinned desc, m.published_at desc limit ${args.limit}) x`);
    return (res.rows[0] as { memos: CommandAnswer<"memo_inbox"> }).memos;
  },
});

export const memoMarkRead = implement(COMMANDS.memo_mark_read, {
  async run(tx, args, caller) {
    const res = await tx.execute(sql`
      insert into memo_read (workspace_id, memo_id, user_id)
      select m.workspace_id, m.id, ${caller.userId}::uuid from memo m
      join "user" u on u.workspace_id = m.workspace_id and u.id = ${caller.userId}::uuid
      where m.workspace_id = ${caller.workspaceId}::uuid and m.id = ${args.memo_id} and m.published_at is not null
        and (m.audience = 'all' or u.workspace_role_id = any(m.audience_role_ids))
      on conflict do nothing
      returning read_at`);
    const exists = await tx.execute(
      sql`select read_at from memo_read where workspace_id = ${caller.workspaceId}::uuid and memo_id = ${args.memo_id} and user_id = ${caller.userId}::uuid`,
    );
    const row = (res.rows[0] ?? exists.rows[0]) as { read_at: Date | string } | undefined;
    if (!row) throw new RestError(404, "PGRST116", "No such memo for you");
    return { memo_id: args.memo_id, read_at: row.read_at };
  },
});
