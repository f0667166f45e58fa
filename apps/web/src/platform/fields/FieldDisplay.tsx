import CheckIcon from "@mui/icons-material/Check";
import RemoveIcon from "@mui/icons-material/Remove";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import { decideResource } from "@workmetrics/domain";
import type { FieldDef, ResourceDef } from "@workmetrics/domain/resources/types";
import { Link as RouterLink } from "react-router";
import type { Id } from "../data-access/provider.ts";
import { referenceLabel, resourceByName } from "../resource/definition.ts";
import { resourcePaths, useDashboardBase } from "../resource/paths.ts";
import { useViewer } from "../session/viewer.tsx";
import { formatAmount, formatDate, formatDateTime, formatNumber, humanize, statusColor } from "./format.ts";
import { useReferenceLabels } from "./ReferenceInput.tsx";

function ReferenceTags({ field, ids }: { field: FieldDef; ids: Id[] }) {
  const label = useReferenceLabels(field, ids);
  if (ids.length === 0) return <Empty />;
  return (
    <Stack direction="row" spacing={0.5} sx={{ flexWrap: "wrap", gap: 0.5 }}>
      {ids.map((id) => (
        <Chip key={String(id)} size="small" label={label(id)} variant="outlined" />
      ))}
    </Stack>
  );
}

type Props = { def: ResourceDef; field: FieldDef; row: Record<string, unknown>; dense?: boolean };

const Empty = () => (
  <Box component="span" sx={{ color: "text.disabled" }}>
    —
  </Box>
);

export function useCurrency(): string {
  return useViewer().currency;
}

// One widget per field kind (Twenty's FieldDisplay): lists and detail pages both render values through here.
export function FieldDisplay({ def, field, row, dense }: Props) {
  const currency = useCurrency();
  const base = useDashboardBase();
  const who = useViewer().member;
  const value = row[field.name];
  if (field.kind === "boolean") {
    return value ? (
      <CheckIcon fontSize="small" color="success" aria-label="Yes" />
    ) : (
      <RemoveIcon fontSize="small" sx={{ color: "text.disabled" }} aria-label="No" />
    );
  }
  if (value === null || value === undefined || value === "") return <Empty />;
  const text = String(value);
  switch (field.kind) {
    case "money":
      return <span style={{ fontVariantNumeric: "tabular-nums" }}>{formatAmount(value, currency)}</span>;
    case "number":
    case "integer":
      // Ids are names, not quantities: no digit grouping.
      if (field.name === "id") return <span>{text}</span>;
      return <span style={{ fontVariantNumeric: "tabular-nums" }}>{formatNumber(value)}</span>;
    case "percent":
      return <span>{formatNumber(value, 2)}%</span>;
    case "date":
      return <span>{formatDate(value)}</span>;
    case "datetime":
      return <span>{formatDateTime(value)}</span>;
    case "status":
      return (
        <Chip
          size="small"
          label={humanize(text)}
          sx={{ bgcolor: statusColor(text), color: "#fff", fontWeight: 500, height: dense ? 22 : 24 }}
        />
      );
    case "enum":
      return <span>{humanize(text)}</span>;
    case "email":
      return (
        <Link href={`mailto:${text}`} underline="hover" onClick={(e) => e.stopPropagation()}>
          {text}
        </Link>
      );
    case "phone":
      return (
        <Link href={`tel:${text.replace(/\s/g, "")}`} underline="hover" onClick={(e) => e.stopPropagation()}>
          {text}
        </Link>
      );
    case "url":
      return /^https?:\/\//i.test(text) ? (
        <Link href={text} target="_blank" rel="noopener noreferrer" onClick={(e) => e.stopPropagation()}>
          {text}
        </Link>
      ) : (
        <span>{text}</span>
      );
    case "reference": {
      const label = referenceLabel(def, field, row);
      // A link only where the person may open the record; otherwise the label alone (issue 9).
      const target = field.reference ? resourceByName(field.reference.resource) : null;
      const paths =
        target && decideResource(who, target, "read").allowed && target.route
          ? resourcePaths(base, target.route)
          : null;
      return paths ? (
        <Link component={RouterLink} to={paths.show(text)} underline="hover" onClick={(e) => e.stopPropagation()}>
          {label}
        </Link>
      ) : (
        <span>{label}</span>
      );
    }
    case "tags": {
      if (field.reference && Array.isArray(value)) return <ReferenceTags field={field} ids={value as Id[]} />;
      const tags = (Array.isArray(value) ? value.map(String) : text.split(",").map((t) => t.trim())).filter(Boolean);
      if (tags.length === 0) return <Empty />;
      return (
        <Stack direction="row" spacing={0.5} sx={{ flexWrap: "wrap", gap: 0.5 }}>
          {tags.map((t) => (
            <Chip key={t} size="small" label={t} variant="outlined" />
          ))}
        </Stack>
      );
    }
    case "image": {
      const src = Array.isArray(value) ? String(value[0] ?? "") : text;
      return src ? (
        <Box
          component="img"
          src={src}
          alt={field.label}
          loading="lazy"
          sx={{ height: dense ? 32 : 96, maxWidth: "100%", objectFit: "contain", borderRadius: 1 }}
        />
      ) : (
        <Empty />
      );
    }
    case "textarea":
      return (
        <Box component="span" sx={{ whiteSpace: dense ? "nowrap" : "pre-wrap" }}>
          {text}
        </Box>
      );
    default:
      return <span>{text}</span>;
  }
}
