import PlaylistAddCheck from "@mui/icons-material/PlaylistAddCheck";
import Button from "@mui/material/Button";
import { useQueryClient } from "@tanstack/react-query";
import { PICK_LIST_MADE_FROM } from "@workmetrics/domain/documents/types/pick-list";
import { useState } from "react";
import toast from "react-hot-toast";
import { useNavigate } from "react-router";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { callCommand } from "../../platform/commands.ts";
import type { Row } from "../../platform/data-access/provider.ts";
import { useDecision } from "../../platform/resource/access.ts";
import { resourcePaths, useDashboardBase } from "../../platform/resource/paths.ts";

// Issue 22 "Pick" from the back office: on a sales order still to deliver or a released delivery instruction, the
// same pick list the warehouse app makes (pick_list_make: numbered at once, lines in walking order), for whoever may
// make pick lists; the server's rule decides the rest (a service-only order has nothing to pick).
const MAKE_PICK_LISTS = {
  audience: "member",
  permission: "pick_list.create",
  feature: "warehouse_tracking",
  does: "make pick lists",
} as const;

type Source = (typeof PICK_LIST_MADE_FROM)[number]["from"];
type Props = { doc: Row; status: string };

export const FromSalesOrder = (p: Props) => <MakePickListButton {...p} type="sales_order" />;
export const FromDeliveryInstruction = (p: Props) => <MakePickListButton {...p} type="delivery_instruction" />;

function MakePickListButton({ doc, status, type }: Props & { type: Source }) {
  const { client } = useSession();
  const may = useDecision(MAKE_PICK_LISTS).allowed;
  const base = useDashboardBase();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const rule = PICK_LIST_MADE_FROM.find((r) => r.from === type);
  if (!may || !client || !rule || !(rule.sourceStatuses as readonly string[]).includes(status)) return null;

  const make = async () => {
    setBusy(true);
    try {
      const made = await callCommand(
        client,
        "pick_list_make",
        { source_type: type, source_id: Number(doc.id) },
        { idempotencyKey: crypto.randomUUID() },
      );
      toast.success(`Pick list ${made.number ?? ""} made`);
      await qc.invalidateQueries({ queryKey: ["pick_list"] });
      navigate(resourcePaths(base, "pick-lists").show(String(made.id)));
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "The pick list could not be made");
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button variant="outlined" startIcon={<PlaylistAddCheck />} loading={busy} onClick={make}>
      Make pick list
    </Button>
  );
}
