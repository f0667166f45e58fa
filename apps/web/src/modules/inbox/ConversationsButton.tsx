import ForumOutlined from "@mui/icons-material/ForumOutlined";
import Button from "@mui/material/Button";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { useQuery } from "@tanstack/react-query";
import { decide } from "@workmetrics/domain";
import { CONVERSATION_READ } from "@workmetrics/domain/commands/inbox";
import { useState } from "react";
import { useNavigate } from "react-router";
import type { Row } from "../../platform/data-access/provider.ts";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { useMember } from "../../platform/resource/access.ts";
import { CHANNEL_LABEL } from "./channels.ts";

// A document's conversations (document_conversations): shown only when there are some the member may read.
export default function ConversationsButton({ doc, type }: { doc: Row; status: string; type: string }) {
  const who = useMember();
  const data = useDataProvider();
  const navigate = useNavigate();
  const [at, setAt] = useState<HTMLElement | null>(null);
  const reads = decide(who, CONVERSATION_READ).allowed;
  const list = useQuery({
    queryKey: ["inbox", "document", type, doc.id],
    queryFn: ({ signal }) =>
      data.command("document_conversations", { document_type: type, document_id: Number(doc.id) }, signal),
    enabled: reads && Boolean(doc.id),
    retry: false,
  });
  if (!reads || !list.data?.length) return null;
  return (
    <>
      <Button variant="outlined" startIcon={<ForumOutlined />} onClick={(e) => setAt(e.currentTarget)}>
        Conversations ({list.data.length})
      </Button>
      <Menu anchorEl={at} open={Boolean(at)} onClose={() => setAt(null)}>
        {list.data.map((c) => (
          <MenuItem key={c.id} onClick={() => navigate(`/dashboard/inbox?c=${c.id}`)}>
            {CHANNEL_LABEL[c.channel_id]} · {c.title}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
