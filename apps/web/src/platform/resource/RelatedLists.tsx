import AddIcon from "@mui/icons-material/Add";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { RelationDef, ResourceDef } from "@workmetrics/domain/resources/types";
import { Link as RouterLink } from "react-router";
import { parseOrder } from "../data-access/filters.ts";
import type { Row } from "../data-access/provider.ts";
import { useCan } from "./access.ts";
import { recordTitle, resourceByName } from "./definition.ts";
import { useList } from "./hooks.ts";
import { resourcePaths, useDashboardBase } from "./paths.ts";

const SHOWN = 5;

// The rows that point at this record (a company's contacts, a category's products), from its "many" relations.
export function RelatedLists({ def, row }: { def: ResourceDef; row: Row }) {
  const related = Object.entries(def.relations).filter(
    ([, rel]) => rel.kind === "many" && resourceByName(rel.resource).route,
  );
  if (related.length === 0) return null;
  return (
    <Stack direction={{ xs: "column", md: "row" }} spacing={2} sx={{ "& > *": { flex: 1, minWidth: 0 } }}>
      {related.map(([key, rel]) => (
        <Related key={key} rel={rel} row={row} />
      ))}
    </Stack>
  );
}

function Related({ rel, row }: { rel: RelationDef; row: Row }) {
  const target = resourceByName(rel.resource);
  const can = useCan(target);
  if (!can("read")) return null;
  return <RelatedCard rel={rel} row={row} target={target} canCreate={can("create")} />;
}

function RelatedCard(props: { rel: RelationDef; row: Row; target: ResourceDef; canCreate: boolean }) {
  const { rel, row, target, canCreate } = props;
  const paths = resourcePaths(useDashboardBase(), target.route ?? "");
  const value = String(row[rel.references] ?? "");
  const list = useList(target, {
    select: `id,${target.display}`,
    filters: [{ column: rel.column, op: "eq", value }],
    order: parseOrder(target.defaultOrder),
    range: [0, SHOWN - 1],
    count: true,
  });
  const total = list.data?.total ?? 0;
  return (
    <Card variant="outlined" component="section" aria-label={target.plural}>
      <CardContent>
        <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between", mb: 1 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {target.plural}
            {list.data && (
              <Typography component="span" color="text.secondary">
                {" "}
                ({total.toLocaleString()})
              </Typography>
            )}
          </Typography>
          {canCreate && (
            <Button
              size="small"
              startIcon={<AddIcon />}
              component={RouterLink}
              to={`${paths.create}?${new URLSearchParams({ [rel.column]: value })}`}
            >
              Add
            </Button>
          )}
        </Stack>
        {list.isPending ? (
          <Skeleton height={32} />
        ) : total === 0 ? (
          <Typography variant="body2" color="text.secondary">
            None yet.
          </Typography>
        ) : (
          <List dense disablePadding>
            {list.data?.data.map((r) => (
              <ListItemButton key={String(r.id)} component={RouterLink} to={paths.show(r.id)} sx={{ borderRadius: 1 }}>
                <ListItemText primary={recordTitle(target, r)} />
              </ListItemButton>
            ))}
            {total > SHOWN && (
              <Typography variant="body2" color="text.secondary" sx={{ px: 2, pt: 1 }}>
                and {(total - SHOWN).toLocaleString()} more
              </Typography>
            )}
          </List>
        )}
      </CardContent>
    </Card>
  );
}
