import { decide, memberRequirement } from "@workmetrics/domain";
import type { COMMANDS } from "@workmetrics/domain/commands";
import { companyResource } from "@workmetrics/domain/resources/crm";
import { projectRegistrationResource } from "@workmetrics/domain/resources/partners";
import { projectResource } from "@workmetrics/domain/resources/projects";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import { type Db, inRequest, type Tx } from "../../platform/db/database.ts";
import type { Shape } from "../../platform/documents/save.ts";
import { insertRows, type Row, updateRow, writeEvent } from "../../platform/documents/store.ts";
import { HttpError } from "../../platform/http/errors.ts";
import type { CommandDeps } from "../../platform/jobs/deps.ts";
import { type Caller, memberOf, refusalError } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { sendPartnerMail } from "./mail.ts";

// Issue 11 "Project registrations": a reseller or customer registers an upcoming project on the workspace's public
// page (the workspace is the one whose address the page is on); it arrives Submitted, flagged when an earlier one
// has the same end customer and project name (case and spaces aside). Staff approve it into a project — linking
// the end customer's company, or making it — or reject it with a reason; the registrant is e-mailed either way.

const TYPE = "project_registration";

export type RegistrationWorkspace = {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  primary_color: string | null;
  currency: string;
};

const closed = () =>
  new HttpError(404, "registrations_closed", "This workspace does not take project registrations here.");

// By the workspace's slug (its address): it must exist, be active and have projects (Pro).
export async function registrationWorkspace(db: Db, slug: string): Promise<RegistrationWorkspace> {
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(slug)) throw closed();
  const res = await db.execute(sql`select w.id::text as id, w.name, w.slug, w.logo, w.primary_color,
      w.base_currency as currency, (w.suspended_at is not null) as suspended, ('projects' = any(t.features)) as projects
    from workspace w join tier t on t.id = w.tier_id where w.slug = ${slug}`);
  const w = res.rows[0] as (RegistrationWorkspace & { suspended: boolean; projects: boolean }) | undefined;
  if (!w?.projects) throw closed();
  if (w.suspended) throw new HttpError(410, "registrations_closed", "This workspace is not taking registrations now.");
  const { suspended: _s, projects: _p, ...out } = w;
  return out;
}

const guest = (workspaceId: string): Caller => ({
  kind: "anon",
  userId: null,
  workspaceId,
  permissions: [],
  features: [],
  isOperator: false,
});

// The registration as sent, validated by the resource's own insert schema (per-field messages).
// `then` runs in the same transaction once it is written (the staff's notice, queued in the outbox).
export async function submitRegistration(
  db: Db,
  w: RegistrationWorkspace,
  body: unknown,
  then?: (tx: Tx, saved: Row) => Promise<void>,
) {
  const parsed = (projectRegistrationResource.insert as unknown as Shape).safeParse(body ?? {});
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({ field: i.path.map(String).join("."), message: i.message }));
    throw new HttpError(422, "validation_failed", details[0]?.message ?? "Check the form", details);
  }
  const fields = parsed.data as Row;
  return inRequest(db, { workspaceId: w.id, userId: null, role: "anon" }, async (tx) => {
    const [created] = await insertRows(tx, projectRegistrationResource, [{ ...fields, workspace_id: w.id }], true);
    const id = Number(created.id);
    // The earliest other registration of the same end customer and project: staff see it as a possible duplicate.
    await tx.execute(sql`update project_registration r set duplicate_of_id = (select min(o.id) from project_registration o
        where o.workspace_id = r.workspace_id and o.duplicate_key = r.duplicate_key and o.id <> r.id)
      where r.workspace_id = ${w.id}::uuid and r.id = ${id}`);
    await writeEvent(tx, guest(w.id), { type: TYPE, docId: id, action: "create", from: null, to: "submitted" });
    const res = await tx.execute(sql`select id, status, duplicate_of_id, end_customer, project_name, contact_name,
        contact_email from project_registration where workspace_id = ${w.id}::uuid and id = ${id}`);
    const saved = res.rows[0] as Row;
    await then?.(tx, saved);
    return saved;
  });
}

// Who hears of a new registration: the workspace's owner and its sales managers (role 2).
export async function registrationRecipients(db: Db, workspaceId: string): Promise<string[]> {
  const res = await db.execute(sql`select distinct a.email from auth_user a
    where a.email is not null and (a.id = (select user_id from workspace where id = ${workspaceId}::uuid)
      or a.id in (select u.id from "user" u where u.workspace_id = ${workspaceId}::uuid and u.role_id = 2 and u.active))`);
  return (res.rows as { email: string }[]).map((r) => r.email);
}

// ---- staff: approve, reject ----------------------------------------------------------------------------------------

function need(caller: Caller, permission: string, does: string): void {
  const d = decide(memberOf(caller), memberRequirement(permission, does, "projects"));
  if (!d.allowed) throw refusalError(d);
}

async function lockRegistration(tx: Tx, ws: string, id: number): Promise<Row> {
  const res = await tx.execute(sql`select * from project_registration
    where workspace_id = ${ws}::uuid and id = ${id} for update`);
  const r = res.rows[0] as Row | undefined;
  if (!r) throw new RestError(404, "PGRST116", `There is no project registration ${id} in this workspace`);
  if (r.status !== "submitted") {
    throw new RestError(409, "PGRST409", `This registration was already ${r.status}`);
  }
  return r;
}

// What project_registration_approve / _reject take (declared in packages/domain/src/commands/partners.ts).
type ApproveArgs = z.output<typeof COMMANDS.project_registration_approve.args>;
type RejectArgs = z.output<typeof COMMANDS.project_registration_reject.args>;

const workspaceName = async (tx: Tx, ws: string) =>
  String(((await tx.execute(sql`select name from workspace where id = ${ws}::uuid`)).rows[0] as { name: string }).name);

export async function approveRegistration(tx: Tx, caller: Caller, args: ApproveArgs, deps: Pick<CommandDeps, "jobs">) {
  need(caller, `${TYPE}.update`, "approve project registrations");
  need(caller, "project.create", "create projects");
  const ws = caller.workspaceId as string;
  const reg = await lockRegistration(tx, ws, args.id);
  let companyId = args.company_id ?? null;
  if (companyId != null) {
    const found = await tx.execute(sql`select 1 from company where workspace_id = ${ws}::uuid and id = ${companyId}`);
    if (found.rows.length === 0) {
      throw new RestError(422, "validation_failed", "Choose a company of this workspace", [
        { field: "company_id", message: "Choose a company of this workspace" },
      ]);
    }
  } else {
    const same = await tx.execute(sql`select id from company where workspace_id = ${ws}::uuid
      and regexp_replace(lower(name), '[[:space:]]+', '', 'g') = regexp_replace(lower(${String(reg.end_customer)}), '[[:space:]]+', '', 'g')
      order by id limit 1`);
    companyId = same.rows.length ? Number((same.rows[0] as { id: number }).id) : null;
  }
  if (companyId == null) {
    need(caller, "company.create", "create companies");
    const [made] = await insertRows(
      tx,
      companyResource,
      [{ workspace_id: ws, name: reg.end_customer, is_customer: true }],
      true,
    );
    companyId = Number(made.id);
  }
  const code = args.code ?? `REG-${args.id}`;
  const taken = await tx.execute(sql`select 1 from project where workspace_id = ${ws}::uuid and code = ${code}`);
  if (taken.rows.length) {
    throw new RestError(409, "23505", `A project with the code ${code} already exists; give another code`, [
      { field: "code", message: "This code is taken" },
    ]);
  }
  const description = [
    reg.site ? `Site: ${reg.site}` : null,
    reg.products_of_interest ? `Products of interest: ${reg.products_of_interest}` : null,
    `Registered by ${reg.contact_name}${reg.contact_company ? ` (${reg.contact_company})` : ""}, ${reg.contact_email}`,
  ].filter(Boolean);
  const [project] = await insertRows(
    tx,
    projectResource,
    [
      {
        workspace_id: ws,
        code,
        name: reg.project_name,
        company_id: companyId,
        status: "planning",
        budget: reg.expected_value ?? null,
        end_date: reg.expected_close_date ?? null,
        description: description.join("\n"),
      },
    ],
    true,
  );
  const projectId = Number(project.id);
  await updateRow(tx, projectRegistrationResource, ws, args.id, {
    status: "approved",
    company_id: companyId,
    project_id: projectId,
    decided_at: new Date().toISOString(),
    decided_by: caller.userId,
  });
  await writeEvent(tx, caller, {
    type: TYPE,
    docId: args.id,
    action: "approve",
    from: "submitted",
    to: "approved",
    changes: { project_id: [null, projectId], company_id: [null, companyId] },
  });
  const name = await workspaceName(tx, ws);
  await sendPartnerMail(deps, tx, ws, {
    to: String(reg.contact_email),
    fromName: name,
    subject: `Your project registration "${reg.project_name}" is approved`,
    paragraphs: [
      `Dear ${reg.contact_name},`,
      `${name} approved your registration of "${reg.project_name}" for ${reg.end_customer}. It is registered as project ${code}; we will be in touch about the next steps.`,
      `Regards,\n${name}`,
    ],
  });
  return { id: args.id, status: "approved", company_id: companyId, project_id: projectId, code };
}

export async function rejectRegistration(tx: Tx, caller: Caller, args: RejectArgs, deps: Pick<CommandDeps, "jobs">) {
  need(caller, `${TYPE}.update`, "reject project registrations");
  const ws = caller.workspaceId as string;
  const reg = await lockRegistration(tx, ws, args.id);
  await updateRow(tx, projectRegistrationResource, ws, args.id, {
    status: "rejected",
    reject_reason: args.reason,
    decided_at: new Date().toISOString(),
    decided_by: caller.userId,
  });
  await writeEvent(tx, caller, {
    type: TYPE,
    docId: args.id,
    action: "reject",
    from: "submitted",
    to: "rejected",
    reason: args.reason,
  });
  const name = await workspaceName(tx, ws);
  await sendPartnerMail(deps, tx, ws, {
    to: String(reg.contact_email),
    fromName: name,
    subject: `Your project registration "${reg.project_name}" was not approved`,
    paragraphs: [
      `Dear ${reg.contact_name},`,
      `${name} could not approve your registration of "${reg.project_name}" for ${reg.end_customer}.`,
      `Reason: ${args.reason}`,
      `Regards,\n${name}`,
    ],
  });
  return { id: args.id, status: "rejected" };
}
