import Badge from "@mui/material/Badge";
import { useMarketplaceLive, useThreads } from "./api.ts";

// Issue 23: the marketplace chat's unread count beside its entry in the navigation, kept live: a new message (or a
// thread read on another page) arrives over realtime and reads the count again (postgres_changes on
// marketplace_message, which the server sends to the two parties' members only).
export default function ChatUnreadBadge() {
  useMarketplaceLive();
  const unread = useThreads().data?.unread ?? 0;
  if (unread <= 0) return null;
  return (
    <Badge
      badgeContent={unread}
      max={99}
      color="primary"
      aria-label={`${unread} unread`}
      data-testid="marketplace-unread"
      sx={{ mr: 1.5, "& .MuiBadge-badge": { position: "static", transform: "none" } }}
    />
  );
}
