import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { FieldDef } from "@workmetrics/domain/resources/types";
import { useState } from "react";
import toast from "react-hot-toast";
import { useNavigate, useParams } from "react-router";
import { DataError, refusal } from "../data-access/errors.ts";
import { FieldDisplay } from "../fields/FieldDisplay.tsx";
import { ConfirmDialog } from "../ui/ConfirmDialog.tsx";
import { usePageTitle } from "../ui/usePageTitle.ts";
import { useCan, useReadable } from "./access.ts";
import { detailFields, fieldReadable, recordTitle } from "./definition.ts";
import { useDeleteMany, useErrorToast, useRecord, useResourceDef } from "./hooks.ts";
import { PageCrumbs, RecordMissing } from "./PageParts.tsx";
import { resourcePaths, useDashboardBase } from "./paths.ts";
import { RelatedLists } from "./RelatedLists.tsx";

const WIDE: FieldDef["kind"][] = ["textarea", "tags", "image"];
const AUDIT = new Set(["id", "created_at", "updated_at"]);

// The one detail page of every resource: each field through its kind's widget, related records below.
export default function ResourceShow() {
  const def = useResourceDef();
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const can = useCan(def);
  const readable = useReadable();
  const paths = resourcePaths(useDashboardBase(), def.route ?? "");
  const record = useRecord(def, id);
  const row = record.data;
  const title = recordTitle(def, row);
  usePageTitle(row ? title : def.title);
  const remove = useDeleteMany(def);
  const [confirming, setConfirming] = useState(false);
  const missing = record.error instanceof DataError && record.error.status === 404;
  useErrorToast(missing ? null : record.error);

  if (missing) return <RecordMissing def={def} listPath={paths.list} />;
  const refused = refusal(record.error);
  if (refused) return <Alert severity="warning">{refused}</Alert>;

  const fields = detailFields(def).filter((f) => fieldReadable(f, readable));
  // A short display column is the page's title already; a long one (a message) is still shown in full.
  const main = fields.filter((f) => !AUDIT.has(f.name) && !(f.name === def.display && f.kind === "text"));
  const audit = fields.filter((f) => AUDIT.has(f.name));

  async function onDelete() {
    try {
      await remove.mutateAsync([row?.id ?? id]);
      toast.success(`${def.title} deleted`);
      navigate(paths.list, { replace: true });
    } catch (err) {
      toast.error((err as Error).message);
      setConfirming(false);
    }
  }

  return (
    <Stack spacing={2}>
      <PageCrumbs def={def} listPath={paths.list} current={row ? title : "…"} />
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ justifyContent: "space-between" }}>
        <Typography variant="h5" component="h1" sx={{ wordBreak: "break-word" }}>
          {row ? title : <Skeleton width={260} />}
        </Typography>
        <Stack direction="row" spacing={1}>
          {can("delete") && (
            <Button color="error" startIcon={<DeleteOutlined />} onClick={() => setConfirming(true)} disabled={!row}>
              Delete
            </Button>
          )}
          {can("update") && (
            <Button
              variant="contained"
              startIcon={<EditOutlined />}
              onClick={() => navigate(paths.edit(id))}
              disabled={!row}
            >
              Edit
            </Button>
          )}
        </Stack>
      </Stack>
      <Card variant="outlined">
        <CardContent>
          <Box
            component="dl"
            sx={{
              m: 0,
              display: "grid",
              gap: 2.5,
              gridTemplateColumns: { xs: "1fr", md: "repeat(2, minmax(0, 1fr))" },
            }}
          >
            {main.map((f) => (
              <Box key={f.name} sx={{ gridColumn: WIDE.includes(f.kind) ? "1 / -1" : undefined, minWidth: 0 }}>
                <Typography component="dt" variant="caption" color="text.secondary">
                  {f.label}
                </Typography>
                <Typography component="dd" sx={{ m: 0, wordBreak: "break-word" }} data-field={f.name}>
                  {row ? <FieldDisplay def={def} field={f} row={row} /> : <Skeleton width="60%" />}
                </Typography>
              </Box>
            ))}
          </Box>
          {row && audit.length > 0 && (
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 3 }}>
              {audit.map((f) => (
                <Box component="span" key={f.name} sx={{ mr: 2, display: "inline-flex", gap: 0.5 }}>
                  {f.label} <FieldDisplay def={def} field={f} row={row} />
                </Box>
              ))}
            </Typography>
          )}
        </CardContent>
      </Card>
      {row && <RelatedLists def={def} row={row} />}
      <ConfirmDialog
        open={confirming}
        title={`Delete ${title}?`}
        body={`This ${def.title.toLowerCase()} will be removed for everyone in the workspace. This cannot be undone.`}
        confirmLabel="Delete"
        destructive
        onCancel={() => setConfirming(false)}
        onConfirm={onDelete}
      />
    </Stack>
  );
}
