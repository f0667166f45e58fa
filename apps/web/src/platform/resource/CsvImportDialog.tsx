import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Step from "@mui/material/Step";
import StepLabel from "@mui/material/StepLabel";
import Stepper from "@mui/material/Stepper";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import type { ResourceDef } from "@workmetrics/domain/resources/types";
import { useMemo, useState } from "react";
import toast from "react-hot-toast";
import { parseCsv } from "../data-access/csv.ts";
import { useDataProvider } from "../data-access/provider.ts";
import { useCan } from "./access.ts";
import { plural } from "./counts.ts";
import {
  autoMap,
  checkKeys,
  checkRow,
  existingKeys,
  type Mapping,
  missingRequired,
  type RowCheck,
  resolveReferences,
  toImportRows,
} from "./csvImport.ts";
import { formFields } from "./definition.ts";
import { refreshAfterWrite } from "./hooks.ts";
import { FileStep, MappingStep, PreviewStep, ReportStep } from "./ImportSteps.tsx";
import { type ImportReport, runImport, withPreviewIssues } from "./importApi.ts";
import { blockedHint, importButtonLabel, importedToast } from "./importLabels.ts";

const STEPS = ["Choose a file", "Match columns", "Check rows", "Result"] as const;
const MAX_ROWS = 10_000;

// CSV import (issue 5 item 4): parse in the browser, match columns to fields, check each row against the
// resource's schema, then one rpc; a bad row imports nothing unless "skip bad rows" is ticked.
export function CsvImportDialog({ def, onClose }: { def: ResourceDef; onClose(): void }) {
  const data = useDataProvider();
  const can = useCan(def);
  const qc = useQueryClient();
  const fields = useMemo(() => formFields(def, "create"), [def]);
  const [step, setStep] = useState(0);
  const [fileName, setFileName] = useState("");
  const [rows, setRows] = useState<string[][]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<Mapping>([]);
  const [rowChecks, setRowChecks] = useState<RowCheck[] | null>(null);
  const [existing, setExisting] = useState<Set<string>>(new Set());
  const [checking, setChecking] = useState(false);
  const [skip, setSkip] = useState(false);
  const [upsert, setUpsert] = useState(false);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [importing, setImporting] = useState(false);
  const missing = missingRequired(fields, mapping);
  const upsertOffered = Boolean(def.naturalKey && can("update"));
  const checks = useMemo(
    () => rowChecks && checkKeys(rowChecks, def, fields, existing, { offered: upsertOffered, ticked: upsert }),
    [rowChecks, def, fields, existing, upsertOffered, upsert],
  );

  async function onFile(file: File) {
    setFileName(file.name);
    const parsed = parseCsv(await file.text());
    const problem =
      parsed.error ??
      (parsed.rows.length < 2
        ? "The file needs a header row and at least one row of data."
        : parsed.rows.length - 1 > MAX_ROWS
          ? `The file has ${plural(parsed.rows.length - 1, "row")}; import at most ${MAX_ROWS.toLocaleString()} at a time.`
          : null);
    setFileError(problem);
    if (problem) return;
    setRows(parsed.rows);
    setMapping(autoMap(parsed.rows[0], fields));
    setStep(1);
  }

  async function toPreview() {
    setChecking(true);
    try {
      const records = toImportRows(rows, mapping, fields);
      const [refs, keys] = await Promise.all([
        resolveReferences(data, records, fields),
        existingKeys(data, def, records),
      ]);
      setRowChecks(records.map((r) => checkRow(def, fields, r, refs)));
      setExisting(keys);
      setStep(2);
    } catch (err) {
      toast.error((err as Error).message);
    } finally {
      setChecking(false);
    }
  }

  async function doImport() {
    if (!checks) return;
    setImporting(true);
    try {
      // Skipping: the rows the preview found bad stay here; the report lists them with the server's.
      const sent = skip ? checks.filter((c) => Object.keys(c.errors).length === 0) : checks;
      const result = withPreviewIssues(await runImport(data, def, sent, { skipBadRows: skip, upsert }), checks);
      setReport(result);
      setStep(3);
      if (result.imported > 0) {
        toast.success(importedToast(def, result.imported));
        await refreshAfterWrite(qc, def);
      }
    } catch (err) {
      toast.error((err as Error).message);
    } finally {
      setImporting(false);
    }
  }

  const bad = checks?.filter((c) => Object.keys(c.errors).length > 0).length ?? 0;
  const refused = report !== null && !report.committed;
  // The server refuses a file with a bad row unless bad rows are skipped: no point sending it.
  const blocked = bad > 0 && !skip;

  return (
    <Dialog open onClose={importing ? undefined : onClose} fullWidth maxWidth="md" aria-labelledby="import-title">
      <DialogTitle id="import-title">Import {def.plural.toLowerCase()} from CSV</DialogTitle>
      <DialogContent dividers>
        <Stepper activeStep={step} alternativeLabel sx={{ mb: 3 }}>
          {STEPS.map((s) => (
            <Step key={s}>
              <StepLabel>{s}</StepLabel>
            </Step>
          ))}
        </Stepper>
        {step === 0 && <FileStep def={def} fields={fields} fileName={fileName} error={fileError} onFile={onFile} />}
        {step === 1 && <MappingStep fields={fields} rows={rows} mapping={mapping} onChange={setMapping} />}
        {step === 1 && missing.length > 0 && (
          <Alert severity="warning" sx={{ mt: 2 }}>
            No column fills {missing.map((f) => f.label).join(", ")}; every row will need it.
          </Alert>
        )}
        {step === 2 && checks && (
          <PreviewStep
            def={def}
            fields={fields}
            checks={checks}
            skip={skip}
            onSkipChange={setSkip}
            upsert={upsertOffered ? upsert : null}
            onUpsertChange={setUpsert}
          />
        )}
        {step === 3 && report && <ReportStep def={def} report={report} refused={refused} fields={fields} />}
      </DialogContent>
      <DialogActions>
        {step > 0 && step < 3 && (
          <Button onClick={() => setStep(step - 1)} disabled={importing}>
            Back
          </Button>
        )}
        {step === 3 && refused && <Button onClick={() => setStep(2)}>Back to the rows</Button>}
        <Button onClick={onClose} disabled={importing}>
          {step === 3 ? "Close" : "Cancel"}
        </Button>
        {step === 1 && (
          <Button variant="contained" onClick={toPreview} loading={checking} disabled={mapping.every((m) => !m)}>
            Check rows
          </Button>
        )}
        {step === 2 && blocked && (
          <Typography variant="body2" color="text.secondary" id="import-blocked" sx={{ mr: 1 }}>
            {blockedHint(bad)}
          </Typography>
        )}
        {step === 2 && checks && (
          <Button
            variant="contained"
            onClick={doImport}
            loading={importing}
            disabled={blocked || (skip && bad === checks.length)}
            aria-describedby={blocked ? "import-blocked" : undefined}
          >
            {importButtonLabel(checks.length, bad, skip)}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
