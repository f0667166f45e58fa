import CheckCircleOutlined from "@mui/icons-material/CheckCircleOutlined";
import ErrorOutlineOutlined from "@mui/icons-material/ErrorOutlineOutlined";
import UploadFileOutlined from "@mui/icons-material/UploadFileOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { FieldDef, ResourceDef } from "@workmetrics/domain/resources/types";
import { toCsv } from "../data-access/csv.ts";
import type { Mapping, RowCheck } from "./csvImport.ts";
import { download } from "./export.ts";
import type { ImportIssue, ImportReport } from "./importApi.ts";
import { previewSummary, reportSummary } from "./importLabels.ts";

const PREVIEW = 10;
const LISTED = 100;

export function FileStep(props: {
  def: ResourceDef;
  fields: FieldDef[];
  fileName: string;
  error: string | null;
  onFile(file: File): void;
}) {
  const { def, fields, fileName, error, onFile } = props;
  return (
    <Box
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        const file = e.dataTransfer.files[0];
        if (file) onFile(file);
      }}
      sx={{ border: 2, borderStyle: "dashed", borderColor: "divider", borderRadius: 1, p: 4, textAlign: "center" }}
    >
      <UploadFileOutlined sx={{ fontSize: 48, color: "text.secondary" }} />
      <Typography sx={{ mb: 2 }}>Drop a CSV file here, or</Typography>
      <Button variant="contained" component="label">
        Choose a CSV file
        <input
          hidden
          type="file"
          accept=".csv,text/csv"
          aria-label="CSV file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) onFile(file);
            e.target.value = "";
          }}
        />
      </Button>
      {fileName && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {fileName}
        </Typography>
      )}
      {error && (
        <Alert severity="error" sx={{ mt: 2, textAlign: "left" }}>
          {error}
        </Alert>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 3 }}>
        The first row names the columns: {fields.map((f) => `${f.label}${f.required ? " *" : ""}`).join(", ")}.
        References may name the row ("Fasteners") or give its id.
      </Typography>
      <Button
        size="small"
        sx={{ mt: 1 }}
        onClick={() => download(`${def.route}-template.csv`, toCsv([fields.map((f) => f.label)]))}
      >
        Download a template
      </Button>
    </Box>
  );
}

export function MappingStep(props: {
  fields: FieldDef[];
  rows: string[][];
  mapping: Mapping;
  onChange(m: Mapping): void;
}) {
  const { fields, rows, mapping, onChange } = props;
  const headers = rows[0] ?? [];
  return (
    <TableContainer>
      <Table size="small" aria-label="Column matching">
        <TableHead>
          <TableRow>
            <TableCell>Column in the file</TableCell>
            <TableCell>First value</TableCell>
            <TableCell sx={{ width: 280 }}>Imports into</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {headers.map((h, col) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a file's columns are known by their position
            <TableRow key={col}>
              <TableCell sx={{ fontWeight: 500 }}>{h || `Column ${col + 1}`}</TableCell>
              <TableCell sx={{ color: "text.secondary", maxWidth: 220, overflow: "hidden", textOverflow: "ellipsis" }}>
                {rows[1]?.[col] ?? ""}
              </TableCell>
              <TableCell>
                <TextField
                  select
                  size="small"
                  fullWidth
                  label={`Field for ${h || `column ${col + 1}`}`}
                  value={mapping[col] ?? ""}
                  onChange={(e) => onChange(mapping.map((m, i) => (i === col ? e.target.value || null : m)))}
                >
                  <MenuItem value="">
                    <em>Do not import</em>
                  </MenuItem>
                  {fields.map((f) => (
                    <MenuItem
                      key={f.name}
                      value={f.name}
                      disabled={mapping.includes(f.name) && mapping[col] !== f.name}
                    >
                      {f.label}
                    </MenuItem>
                  ))}
                </TextField>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

// "Price must be a number" stands alone; "Required" needs its field's label.
function problems(check: RowCheck, byName: Map<string, FieldDef>): string {
  return Object.entries(check.errors)
    .map(([f, m]) => {
      const label = byName.get(f)?.label;
      return label && !m.startsWith(label) ? `${label}: ${m}` : m;
    })
    .join("; ");
}

// A cell as the file has it; a reference found by its label shows the id it matched, quietly.
function PreviewCell({ field, check }: { field: FieldDef; check: RowCheck }) {
  const text = check.cells[field.name] ?? "";
  const id = check.values[field.name];
  const matched = field.kind === "reference" && !check.errors[field.name] && id != null && text.trim() !== String(id);
  return (
    <TableCell>
      {text}
      {matched && (
        <Typography component="span" variant="caption" sx={{ ml: 0.5, opacity: 0.7, whiteSpace: "nowrap" }}>
          → #{String(id)}
        </Typography>
      )}
    </TableCell>
  );
}

export function PreviewStep(props: {
  def: ResourceDef;
  fields: FieldDef[];
  checks: RowCheck[];
  skip: boolean;
  onSkipChange(v: boolean): void;
  upsert: boolean | null; // null: the resource has no natural key (or the user may not update)
  onUpsertChange(v: boolean): void;
}) {
  const { def, fields, checks, skip, onSkipChange, upsert, onUpsertChange } = props;
  const key = fields.find((f) => f.name === def.naturalKey)?.label ?? def.naturalKey;
  const byName = new Map(fields.map((f) => [f.name, f]));
  const shown = fields.filter((f) => checks.some((c) => f.name in c.cells));
  const bad = checks.filter((c) => Object.keys(c.errors).length > 0);
  return (
    <>
      <Alert severity={bad.length ? "warning" : "success"} sx={{ mb: 2 }}>
        {previewSummary(checks.length, bad.length)}
        {bad.length > 0 && !skip && " As it stands the server will refuse the whole file."}
      </Alert>
      <TableContainer sx={{ maxHeight: 320 }}>
        <Table size="small" stickyHeader aria-label={`First rows of the ${def.plural.toLowerCase()} file`}>
          <TableHead>
            <TableRow>
              <TableCell>Line</TableCell>
              {shown.map((f) => (
                <TableCell key={f.name}>{f.label}</TableCell>
              ))}
              <TableCell>Check</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {checks.slice(0, PREVIEW).map((c) => {
              const ok = Object.keys(c.errors).length === 0;
              return (
                <TableRow
                  key={c.line}
                  sx={ok ? undefined : { bgcolor: "error.light", "& td": { color: "error.contrastText" } }}
                >
                  <TableCell>{c.line}</TableCell>
                  {shown.map((f) => (
                    <PreviewCell key={f.name} field={f} check={c} />
                  ))}
                  <TableCell>
                    {ok ? (
                      <CheckCircleOutlined fontSize="small" color="success" aria-label="OK" />
                    ) : (
                      problems(c, byName)
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
      {bad.length > 0 && (
        <Box component="ul" aria-label="Rows with problems" sx={{ mt: 2, pl: 3, maxHeight: 160, overflowY: "auto" }}>
          {bad.slice(0, LISTED).map((c) => (
            <li key={c.line}>
              <Typography variant="body2">
                Line {c.line}: {problems(c, byName)}
              </Typography>
            </li>
          ))}
          {bad.length > LISTED && <li>and {(bad.length - LISTED).toLocaleString()} more</li>}
        </Box>
      )}
      <Box sx={{ mt: 1, display: "flex", flexDirection: "column" }}>
        <FormControlLabel
          control={<Checkbox checked={skip} onChange={(e) => onSkipChange(e.target.checked)} />}
          label="Skip bad rows (import only the good ones)"
        />
        {upsert !== null && (
          <FormControlLabel
            control={<Checkbox checked={upsert} onChange={(e) => onUpsertChange(e.target.checked)} />}
            label={`Update existing ${def.plural.toLowerCase()} (matched by ${key})`}
          />
        )}
      </Box>
    </>
  );
}

export function ReportStep(props: { def: ResourceDef; report: ImportReport; refused: boolean; fields: FieldDef[] }) {
  const { def, report, refused, fields } = props;
  const label = (i: ImportIssue) => fields.find((f) => f.name === i.field)?.label ?? i.field ?? "";
  return (
    <>
      {refused ? (
        <Alert severity="error" icon={<ErrorOutlineOutlined />} sx={{ mb: 2 }}>
          {reportSummary(def, report, true)}
        </Alert>
      ) : (
        <Alert severity="success" sx={{ mb: 2 }}>
          {reportSummary(def, report, false)}
        </Alert>
      )}
      {report.issues.length > 0 && (
        <TableContainer sx={{ maxHeight: 320 }}>
          <Table size="small" stickyHeader aria-label="Import problems">
            <TableHead>
              <TableRow>
                <TableCell>Line</TableCell>
                <TableCell>Field</TableCell>
                <TableCell>Problem</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {report.issues.slice(0, 500).map((i, n) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a report is never reordered
                <TableRow key={n}>
                  <TableCell>{i.line}</TableCell>
                  <TableCell>{label(i)}</TableCell>
                  <TableCell>{i.message}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </>
  );
}
