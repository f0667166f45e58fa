import ArrowBackOutlined from "@mui/icons-material/ArrowBackOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { projectRegistrationResource } from "@workmetrics/domain/resources/partners";
import { useState } from "react";
import toast from "react-hot-toast";
import { Link as RouterLink, useParams } from "react-router";
import { DataError } from "../../platform/data-access/errors.ts";
import type { Row } from "../../platform/data-access/provider.ts";
import { FieldDisplay } from "../../platform/fields/FieldDisplay.tsx";
import { statusColor } from "../../platform/fields/format.ts";
import { useDecision } from "../../platform/resource/access.ts";
import { resourcePaths, useDashboardBase } from "../../platform/resource/paths.ts";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { Picker } from "../documents/Picker.tsx";
import { REGISTRATION_DECIDE } from "./access.ts";
import {
  type RegistrationRow,
  useApproveRegistration,
  useDuplicates,
  useRegistration,
  useRejectRegistration,
} from "./api.ts";

// Issue 11: one project registration under review — what was registered and by whom, the other registrations of the
// same end customer and project (possible duplicates), then Approve (into a project, linking a company or making
// one) or Reject with a reason; the registrant is e-mailed either way.

const SHOWN = [
  "end_customer",
  "project_name",
  "site",
  "expected_value",
  "expected_close_date",
  "products_of_interest",
  "contact_name",
  "contact_company",
  "contact_email",
  "contact_phone",
  "note",
  "created_at",
];

export default function RegistrationReview() {
  const { id = "" } = useParams();
  const reg = useRegistration(Number(id));
  const base = useDashboardBase();
  usePageTitle(`Project registration ${id}`);
  if (reg.isPending) return <CircularProgress aria-label="Loading the registration" />;
  if (reg.isError) return <Alert severity="error">{reg.error.message}</Alert>;
  const r = reg.data;
  const def = projectRegistrationResource;
  return (
    <Stack spacing={2}>
      <Box>
        <Button
          component={RouterLink}
          to={`${base}/project-registrations`}
          startIcon={<ArrowBackOutlined />}
          size="small"
        >
          Project registrations
        </Button>
      </Box>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ alignItems: { sm: "center" } }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          REG-{r.id} · {r.project_name}
        </Typography>
        <Chip
          label={r.status.charAt(0).toUpperCase() + r.status.slice(1)}
          data-status={r.status}
          sx={{ bgcolor: statusColor(r.status), color: "#fff", alignSelf: { xs: "flex-start", sm: "center" } }}
        />
      </Stack>
      <Duplicates reg={r} base={base} />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Box
          component="dl"
          sx={{ m: 0, display: "grid", gap: 1.5, gridTemplateColumns: { xs: "1fr", sm: "200px 1fr" } }}
        >
          {SHOWN.map((name) => {
            const field = def.fields.find((f) => f.name === name);
            if (!field || r[name] == null || r[name] === "") return null;
            return (
              <Box key={name} sx={{ display: "contents" }}>
                <Typography component="dt" color="text.secondary">
                  {field.label}
                </Typography>
                <Box component="dd" sx={{ m: 0, whiteSpace: "pre-line" }}>
                  <FieldDisplay def={def} field={field} row={r} />
                </Box>
              </Box>
            );
          })}
        </Box>
      </Paper>
      <Outcome reg={r} base={base} />
    </Stack>
  );
}

function Duplicates({ reg, base }: { reg: RegistrationRow; base: string }) {
  const dups = useDuplicates(reg);
  if (!dups.data?.length) return null;
  return (
    <Alert severity="warning" data-testid="possible-duplicates">
      Possible duplicate — the same end customer and project were registered{" "}
      {dups.data.length === 1 ? "once more" : `${dups.data.length} more times`}:{" "}
      {dups.data.map((d, i) => (
        <span key={String(d.id)}>
          {i > 0 && ", "}
          <Link component={RouterLink} to={`${base}/project-registrations/${d.id}`}>
            REG-{String(d.id)}
          </Link>{" "}
          ({String(d.status)}, by {String(d.contact_name)}
          {d.contact_company ? ` of ${String(d.contact_company)}` : ""})
        </span>
      ))}
    </Alert>
  );
}

function Outcome({ reg, base }: { reg: RegistrationRow; base: string }) {
  const mayDecide = useDecision(REGISTRATION_DECIDE).allowed;
  if (reg.status === "approved") {
    return (
      <Alert severity="success">
        Approved into project{" "}
        <Link component={RouterLink} to={`${resourcePaths(base, "projects").show(String(reg.project_id))}`}>
          {String(reg.project?.code ?? "")} {String(reg.project?.name ?? "")}
        </Link>
        {reg.company ? ` for ${String(reg.company.name)}` : ""}.
      </Alert>
    );
  }
  if (reg.status === "rejected") return <Alert severity="info">Rejected: {reg.reject_reason}</Alert>;
  return mayDecide ? <Decide reg={reg} /> : null;
}

function Decide({ reg }: { reg: RegistrationRow }) {
  const approve = useApproveRegistration();
  const reject = useRejectRegistration();
  const [company, setCompany] = useState<Row | null>(null);
  const [code, setCode] = useState(`REG-${reg.id}`);
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function run(fn: () => Promise<unknown>, done: string) {
    setErrors({});
    try {
      await fn();
      toast.success(done);
    } catch (err) {
      if (err instanceof DataError) setErrors(err.fields);
      toast.error(err instanceof Error ? err.message : "It could not be done");
    }
  }

  return (
    <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", md: "1fr 1fr" } }}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack spacing={2}>
          <Typography variant="subtitle1" component="h2">
            Approve into a project
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Link a company, or leave it empty: the company named like the end customer is linked, else a new one is
            made.
          </Typography>
          <Picker
            resource="company"
            label="Company"
            select="id,name"
            display="name"
            search={["name"]}
            value={company}
            onChange={setCompany}
            error={errors.company_id}
          />
          <TextField
            label="Project code"
            size="small"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={Boolean(errors.code)}
            helperText={errors.code}
          />
          <Box>
            <Button
              variant="contained"
              loading={approve.isPending}
              onClick={() =>
                run(
                  () =>
                    approve.mutateAsync({ id: Number(reg.id), company_id: company ? Number(company.id) : null, code }),
                  "Approved: the project is made and the registrant told",
                )
              }
            >
              Approve
            </Button>
          </Box>
        </Stack>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack spacing={2}>
          <Typography variant="subtitle1" component="h2">
            Reject
          </Typography>
          <TextField
            label="Reason (sent to the registrant)"
            multiline
            minRows={2}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            error={Boolean(errors.reason)}
            helperText={errors.reason}
          />
          <Box>
            <Button
              color="error"
              variant="outlined"
              loading={reject.isPending}
              onClick={() =>
                run(() => reject.mutateAsync({ id: Number(reg.id), reason }), "Rejected; the registrant is told why")
              }
            >
              Reject
            </Button>
          </Box>
        </Stack>
      </Paper>
    </Box>
  );
}
