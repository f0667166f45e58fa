import { useEffect, useRef, useState } from "react";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { type RealtimeHandler, type RealtimeStatus, realtime } from "./channel.ts";

// Listens to one realtime event while the component is mounted (the latest handler is called, so it may close over
// state), and answers the channel's status for a "Live" indicator.
export function useRealtime(event: string, handler: RealtimeHandler): RealtimeStatus {
  const { session } = useSession();
  const latest = useRef(handler);
  latest.current = handler;
  const [status, setStatus] = useState<RealtimeStatus>(realtime.status);
  const token = session?.access_token ?? null;
  useEffect(() => {
    realtime.setToken(token);
  }, [token]);
  useEffect(() => {
    const stopWatching = realtime.watch(setStatus);
    const unsubscribe = realtime.subscribe(event, (payload, name) => latest.current(payload, name));
    setStatus(realtime.status);
    return () => {
      unsubscribe();
      stopWatching();
    };
  }, [event]);
  return status;
}
