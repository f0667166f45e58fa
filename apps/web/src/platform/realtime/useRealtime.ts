import type { RealtimeChannel, RealtimePostgresChangesPayload } from "@supabase/supabase-js";
import { useEffect, useRef, useState } from "react";
import { getSupabase } from "../../app/session/client.ts";
import { useSession } from "../../app/session/SessionProvider.tsx";

// Issue 20 §4: the app's realtime is supabase-js's own channel() against our /realtime/v1/websocket (DESIGN §2.3.2).
// These hooks only tie a channel's life to a component's: joined while it is mounted and someone is signed in, left
// when it unmounts. supabase-js keeps the socket, its heartbeats, the access token (refreshed with the session) and
// the reconnects (1, 2, 5, 10 s) itself. The latest handler is called, so it may close over state.

export type RealtimeStatus = "connecting" | "live" | "offline";

type Bind = (channel: RealtimeChannel, fire: (payload: unknown) => void) => RealtimeChannel;

function useChannel(topic: string | null, bind: Bind, handler: (payload: unknown) => void): RealtimeStatus {
  const { session } = useSession();
  const signedIn = Boolean(session?.access_token);
  const latest = useRef(handler);
  latest.current = handler;
  const binder = useRef(bind);
  binder.current = bind;
  const [status, setStatus] = useState<RealtimeStatus>("offline");
  useEffect(() => {
    if (!topic || !signedIn) return;
    let gone = false;
    let joined: RealtimeChannel | null = null;
    setStatus("connecting");
    void (async () => {
      const sb = await getSupabase();
      // A channel of the same topic still leaving (a remount) would be handed back by channel(): wait for it.
      const stale = sb.getChannels().find((c) => c.topic === `realtime:${topic}`);
      if (stale) await sb.removeChannel(stale);
      await sb.realtime.setAuth(); // the session's token, before the join carries it
      if (gone) return;
      joined = binder.current(sb.channel(topic), (p) => latest.current(p));
      joined.subscribe((s) => {
        if (!gone) setStatus(s === "SUBSCRIBED" ? "live" : s === "CLOSED" ? "offline" : "connecting");
      });
    })();
    return () => {
      gone = true;
      const channel = joined;
      if (channel) void getSupabase().then((sb) => sb.removeChannel(channel));
    };
  }, [topic, signedIn]);
  return status;
}

// A broadcast `event` on `topic` (the server's own, such as the leaderboard's "changed", or another member's).
export function useBroadcast(topic: string, event: string, handler: (payload: unknown) => void): RealtimeStatus {
  return useChannel(topic, (ch, fire) => ch.on("broadcast", { event }, (m) => fire(m.payload)), handler);
}

export type TableChange = RealtimePostgresChangesPayload<Record<string, unknown>>;

let changeHooks = 0;

// Changes of rows of `table` the member reads (postgres_changes: the server checks each row as /rest/v1 would);
// `filter` in the PostgREST dialect, e.g. `id=eq.5`. Null tables: nothing is joined.
export function useTableChanges(
  tables: readonly string[] | null,
  handler: (change: TableChange) => void,
  filter?: string,
): RealtimeStatus {
  // A topic of its own per hook: two components watching the same tables at once (the sidebar's unread badge and
  // the chat page) would otherwise be handed one channel by supabase-js, and binding it again after subscribe()
  // throws. postgres_changes are matched by the bindings, not the topic's name.
  const [instance] = useState(() => ++changeHooks);
  const key = tables?.length ? `changes:${tables.join(",")}${filter ? `:${filter}` : ""}@${instance}` : null;
  return useChannel(
    key,
    (ch, fire) => {
      for (const table of tables ?? []) {
        ch.on("postgres_changes", { event: "*", schema: "public", table, filter }, (p) => fire(p));
      }
      return ch;
    },
    handler as (payload: unknown) => void,
  );
}
