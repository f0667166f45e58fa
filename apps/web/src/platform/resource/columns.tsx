import Link from "@mui/material/Link";
import type { GridColDef, GridColumnVisibilityModel } from "@mui/x-data-grid";
import type { FieldDef, ResourceDef } from "@workmetrics/domain/resources/types";
import { Link as RouterLink } from "react-router";
import { filterGroup } from "../data-access/filters.ts";
import type { Row } from "../data-access/provider.ts";
import { FieldDisplay } from "../fields/FieldDisplay.tsx";
import { humanize, parseDay } from "../fields/format.ts";
import {
  fieldReadable,
  listFields,
  orderColumn,
  type Readable,
  readsAll,
  referenceLabel,
  showsWorkspace,
} from "./definition.ts";
import type { ResourcePaths } from "./paths.ts";

const GRID_TYPE = {
  text: "string",
  number: "number",
  boolean: "boolean",
  date: "date",
  datetime: "date",
  choice: "singleSelect",
  none: "string",
} as const;

const WIDTH: Partial<Record<FieldDef["kind"], number>> = {
  boolean: 90,
  integer: 110,
  number: 120,
  percent: 110,
  money: 150,
  date: 130,
  datetime: 180,
  status: 130,
  enum: 130,
  email: 220,
  reference: 180,
};

// DataGrid columns from the field list: a widget per kind, server-side sort and filter where the engine can. A
// reference to what the member may not read has no label to show (its embed is not asked for): no column.
export function buildColumns(def: ResourceDef, paths: ResourcePaths, readable: Readable = readsAll): GridColDef<Row>[] {
  const fields = def.fields.filter((f) => showsWorkspace(f) && fieldReadable(f, readable));
  return fields.map((f): GridColDef<Row> => {
    const group = filterGroup(f.kind);
    const isDisplay = f.name === def.display;
    const col: GridColDef<Row> = {
      field: f.name,
      headerName: f.label,
      type: GRID_TYPE[group],
      width: f.width ?? WIDTH[f.kind] ?? 180,
      // The name people click keeps room on a phone; the other columns scroll.
      minWidth: isDisplay ? Math.min(180, f.width ?? 180) : 80, // a document number needs less than a name
      flex: isDisplay ? 1 : undefined,
      sortable: orderColumn(def, f) !== null, // references sort by the referenced row's label
      filterable: group !== "none",
      align: group === "number" ? "right" : undefined,
      headerAlign: group === "number" ? "right" : undefined,
      renderCell: ({ row }) =>
        isDisplay ? (
          <Link component={RouterLink} to={paths.show(row.id)} underline="hover" sx={{ fontWeight: 500 }}>
            {String(row[f.name] ?? `#${String(row.id)}`)}
          </Link>
        ) : (
          <FieldDisplay def={def} field={f} row={row} dense />
        ),
    };
    if (f.kind === "reference") col.valueGetter = (_v, row) => referenceLabel(def, f, row);
    if (group === "date" || group === "datetime") {
      col.valueGetter = (v) => (typeof v === "string" && v ? parseDay(v) : null);
    }
    if (group === "choice") {
      return {
        ...col,
        type: "singleSelect",
        valueOptions: (f.options ?? []).map((o) => ({ value: o, label: humanize(o) })),
      };
    }
    return col;
  });
}

// Columns not in the resource's list set start hidden; the column chooser shows them.
export function defaultVisibility(def: ResourceDef): GridColumnVisibilityModel {
  const shown = new Set(listFields(def).map((f) => f.name));
  return Object.fromEntries(def.fields.map((f) => [f.name, shown.has(f.name)]));
}
