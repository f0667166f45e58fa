// A job as the platform operator's Failed jobs page shows it (GET /api/platform/jobs, issue 20 §1): the server
// answers it and the web reads it, declared once.
export type OperatorJob = {
  id: number;
  name: string;
  status: "queued" | "dead";
  workspace: string | null;
  doc_type: string | null;
  doc_id: number | null;
  to: string | null;
  subject: string | null;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  run_at: string;
  updated_at: string;
};
