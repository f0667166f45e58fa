import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import LinearProgress from "@mui/material/LinearProgress";
import Link from "@mui/material/Link";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { errorMessage } from "@workmetrics/domain";
import { Link as RouterLink } from "react-router";
import { type Row, useDataProvider } from "../../platform/data-access/provider.ts";
import { formatNumber } from "../../platform/fields/format.ts";
import { useReadable } from "../../platform/resource/access.ts";
import { resourcePaths, useDashboardBase } from "../../platform/resource/paths.ts";
import type { DocRow } from "./api.ts";
import { StatusChip } from "./StatusChip.tsx";
import { DOCUMENT_TYPES, drawnFrom, findDocType, type WebDocType } from "./types.ts";

// The document flow (issue 10 §3): for each line, the line it was made from (a link to its document), what was
// delivered, billed and returned against it (the line's drawn quantities), and the documents made from it with their
// quantities, each a link. Documents made through another one count too (a credit note made from a goods return
// note credits the invoice's lines: its lines name them in `invoice_line_id`). A source the member may not read (a
// driver's delivery made from a sales order) is named by its type only, without number or link.

type Made = { type: WebDocType; line: Row; doc: Row; to: number; via?: WebDocType };

const DRAWN = [
  ["qty_delivered", "Delivered"],
  ["qty_billed", "Billed"],
  ["qty_received", "Received"],
  ["qty_returned", "Returned"],
] as const;

function useFlow(type: WebDocType, doc: DocRow) {
  const data = useDataProvider();
  const readable = useReadable();
  const lineIds = doc.lines.map((l) => Number(l.id));
  // Only the documents the member reads (a warehouse's delivery order was billed — they read no invoices).
  const source = doc.source_type ? findDocType(String(doc.source_type)) : undefined;
  const sourceType = source && readable(source.type) && readable(source.lines.name) ? source : undefined;
  const sourceLineIds = doc.lines.map((l) => l.source_line_id).filter((v) => v != null);
  return useQuery({
    queryKey: [type.type, "one", String(doc.id), "flow", doc.updated_at],
    queryFn: async ({ signal }) => {
      const source =
        sourceType && sourceLineIds.length
          ? await data.getList(sourceType.lines.name, {
              select: "id,line_no",
              filters: [{ column: "id", op: "in", value: `(${sourceLineIds.join(",")})` }],
              signal,
            })
          : { data: [] as Row[] };
      const madeTypes = DOCUMENT_TYPES.filter(
        (t) => readable(t.lines.name) && t.madeFrom.some((m) => m.from === type.type && !m.indirect),
      );
      const made: Made[] = [];
      if (lineIds.length) {
        for (const t of madeTypes) {
          const res = await data.getList(t.lines.name, {
            select: `id,qty,source_line_id,doc:${t.type}(id,number,status)`,
            filters: [{ column: "source_line_id", op: "in", value: `(${lineIds.join(",")})` }],
            order: [{ column: "id", ascending: true }],
            signal,
          });
          // A line of another type may name the same source line id (ids are per table): only documents made
          // from this document count.
          const docs = res.data.filter((l) => l.doc && typeof l.doc === "object");
          const ids = [...new Set(docs.map((l) => Number((l.doc as Row).id)))];
          const mine = ids.length
            ? await data.getList(t.type, {
                select: "id",
                filters: [
                  { column: "id", op: "in", value: `(${ids.join(",")})` },
                  { column: "source_type", op: "eq", value: type.type },
                  { column: "source_id", op: "eq", value: String(doc.id) },
                ],
                signal,
              })
            : { data: [] };
          const keep = new Set(mine.data.map((r) => Number(r.id)));
          for (const l of docs)
            if (keep.has(Number((l.doc as Row).id)))
              made.push({ type: t, line: l, doc: l.doc as Row, to: Number(l.source_line_id) });
        }
        // Made through another document: lines that name this document's lines in `<type>_line_id`.
        const column = `${type.type}_line_id`;
        const throughTypes = DOCUMENT_TYPES.filter(
          (t) =>
            readable(t.type) &&
            readable(t.lines.name) &&
            t.lines.fields.some((f) => f.name === column && f.reference?.resource === type.lines.name),
        );
        for (const t of throughTypes) {
          const res = await data.getList(t.lines.name, {
            select: `id,qty,${column},doc:${t.type}(id,number,status,source_type,source_id)`,
            filters: [{ column, op: "in", value: `(${lineIds.join(",")})` }],
            order: [{ column: "id", ascending: true }],
            signal,
          });
          for (const l of res.data) {
            const d = l.doc as Row | null;
            if (!d || (d.source_type === type.type && String(d.source_id) === String(doc.id))) continue;
            const via = d.source_type ? findDocType(String(d.source_type)) : undefined;
            made.push({ type: t, line: l, doc: d, to: Number(l[column]), via });
          }
        }
      }
      const sourceHeader =
        sourceType && doc.source_id != null
          ? await data.getList(sourceType.type, {
              select: "id,number",
              filters: [{ column: "id", op: "eq", value: String(doc.source_id) }],
              signal,
            })
          : { data: [] as Row[] };
      return {
        sourceLines: new Map(source.data.map((r) => [Number(r.id), Number(r.line_no)])),
        sourceNumber: (sourceHeader.data[0]?.number as string | null | undefined) ?? null,
        made,
      };
    },
    staleTime: 5_000,
  });
}

export function FlowPanel({ type, doc }: { type: WebDocType; doc: DocRow }) {
  const base = useDashboardBase();
  const flow = useFlow(type, doc);
  const readable = useReadable();
  const madeFrom = doc.source_type ? findDocType(String(doc.source_type)) : undefined;
  const sourceType = madeFrom && readable(madeFrom.type) ? madeFrom : undefined;
  const hidden = madeFrom && !sourceType ? `${madeFrom.machine.title} — not shared with you` : null;
  const draws = drawnFrom(type.type);
  const drawn = DRAWN.filter(([name]) => draws.has(name) && type.lines.fields.some((f) => f.name === name));
  const link = (t: WebDocType, id: unknown) =>
    t.header.route ? resourcePaths(base, t.header.route).show(String(id)) : resourcePaths(base, "").list;
  if (flow.isPending) return <LinearProgress aria-label="Loading the document flow" />;
  if (flow.isError) return <Alert severity="warning">{errorMessage(flow.error, "The flow could not be loaded")}</Alert>;
  return (
    <Box>
      {sourceType && doc.source_id != null && (
        <Typography variant="body2" sx={{ mb: 1 }}>
          Made from {sourceType.machine.title.toLowerCase()}{" "}
          <Link component={RouterLink} to={link(sourceType, doc.source_id)}>
            {flow.data.sourceNumber ?? `#${String(doc.source_id)}`}
          </Link>
        </Typography>
      )}
      {hidden && doc.source_id != null && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="flow-source-hidden">
          Made from: {hidden}
        </Typography>
      )}
      <TableContainer sx={{ overflowX: "auto" }}>
        <Table size="small" aria-label="Document flow">
          <TableHead>
            <TableRow>
              <TableCell>#</TableCell>
              <TableCell>Line</TableCell>
              <TableCell align="right">Qty</TableCell>
              <TableCell>From</TableCell>
              {drawn.map(([name, label]) => (
                <TableCell key={name} align="right">
                  {label}
                </TableCell>
              ))}
              <TableCell>Made into</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {doc.lines.map((l) => {
              const made = flow.data.made.filter((m) => m.to === Number(l.id));
              const sourceNo =
                l.source_line_id == null ? undefined : flow.data.sourceLines.get(Number(l.source_line_id));
              return (
                <TableRow key={String(l.id)} data-testid={`flow-line-${String(l.line_no)}`}>
                  <TableCell>{String(l.line_no)}</TableCell>
                  <TableCell>{String(l.description ?? l.sku ?? "")}</TableCell>
                  <TableCell align="right">{formatNumber(l.qty)}</TableCell>
                  <TableCell>
                    {sourceType && l.source_line_id != null ? (
                      <Link component={RouterLink} to={link(sourceType, doc.source_id)}>
                        {flow.data.sourceNumber ?? sourceType.machine.title} line {sourceNo ?? "?"}
                      </Link>
                    ) : hidden && l.source_line_id != null ? (
                      <Typography variant="body2" color="text.secondary">
                        {hidden}
                      </Typography>
                    ) : (
                      "—"
                    )}
                  </TableCell>
                  {drawn.map(([name]) => (
                    <TableCell key={name} align="right" data-testid={`flow-${name}`}>
                      {formatNumber(l[name] ?? 0)}
                    </TableCell>
                  ))}
                  <TableCell>
                    {made.length === 0
                      ? "—"
                      : made.map((m) => (
                          <Box
                            key={`${m.type.type}-${String(m.line.id)}`}
                            sx={{ display: "flex", gap: 1, alignItems: "center", py: 0.25 }}
                          >
                            <Link component={RouterLink} to={link(m.type, m.doc.id)}>
                              {String(
                                m.doc.number ?? `Draft ${m.type.machine.title.toLowerCase()} #${String(m.doc.id)}`,
                              )}
                            </Link>
                            <Typography variant="body2" sx={{ fontVariantNumeric: "tabular-nums" }}>
                              × {formatNumber(m.line.qty)}
                            </Typography>
                            <StatusChip type={m.type} status={String(m.doc.status)} dense />
                            {m.via && (
                              <Typography variant="caption" color="text.secondary">
                                through a {m.via.machine.title.toLowerCase()}
                              </Typography>
                            )}
                          </Box>
                        ))}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}
