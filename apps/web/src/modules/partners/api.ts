import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CommandArgs, CommandName, CommandResult } from "@workmetrics/domain/commands";
import { type Row, useDataProvider } from "../../platform/data-access/provider.ts";

// Issue 11: the partners pages' reads (through /rest/v1) and commands (supplier_discount_form_*,
// project_registration_*), each invalidating what it changed.

export type DiscountFormRow = Row & {
  status: string;
  company_id: number;
  contact_email: string;
  category_id: number | null;
  discount_kind: "percent" | "price";
  discount_percent: string | null;
  min_qty: string;
  valid_from: string;
  valid_to: string;
  message: string | null;
  sent_at: string | null;
  link_expires_at: string | null;
  responded_at: string | null;
  responder_name: string | null;
  responder_note: string | null;
  company: Row | null;
  category: Row | null;
  items: Array<Row & { product_id: number; price: string | null; product: Row | null }>;
};

const FORM_SELECT =
  "*,company:company(id,name),category:category(id,name),items:supplier_discount_form_item(id,product_id,price,sort_order,product:product(id,name,sku,unit))";

export function useDiscountForm(id: number | null) {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["supplier_discount_form", "one", String(id), "page"],
    queryFn: ({ signal }) => data.getOne("supplier_discount_form", id as number, FORM_SELECT, signal),
    enabled: id != null,
    select: (row) => row as DiscountFormRow,
  });
}

function useCommand<N extends CommandName>(name: N, keys: string[]) {
  const data = useDataProvider();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CommandArgs<N>) => data.command(name, args),
    onSuccess: () => Promise.all(keys.map((k) => qc.invalidateQueries({ queryKey: [k] }))),
  });
}

export type DiscountFormValues = CommandArgs<"supplier_discount_form_save">;

export const useSaveDiscountForm = () => useCommand("supplier_discount_form_save", ["supplier_discount_form"]);
export const useSendDiscountForm = () => useCommand("supplier_discount_form_send", ["supplier_discount_form"]);
export const useRevokeDiscountForm = () => useCommand("supplier_discount_form_revoke", ["supplier_discount_form"]);

// A supplier user's forms (those addressed to their company) and their answer.
export type MyDiscountForm = CommandResult<"supplier_discount_forms_mine">[number];
export function useMyDiscountForms() {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["supplier_discount_form", "mine"],
    queryFn: ({ signal }) => data.command("supplier_discount_forms_mine", {}, signal),
  });
}
export const useRespondDiscountForm = () => useCommand("supplier_discount_form_respond", ["supplier_discount_form"]);

// ---- project registrations ----------------------------------------------------------------------------------------

export type RegistrationRow = Row & {
  status: string;
  end_customer: string;
  project_name: string;
  duplicate_key: string;
  duplicate_of_id: number | null;
  company_id: number | null;
  project_id: number | null;
  reject_reason: string | null;
  company: Row | null;
  project: Row | null;
};

export function useRegistration(id: number) {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["project_registration", "one", String(id), "page"],
    queryFn: ({ signal }) =>
      data.getOne("project_registration", id, "*,company:company(id,name),project:project(id,code,name)", signal),
    select: (row) => row as RegistrationRow,
  });
}

// The other registrations of the same end customer and project (case and spaces aside).
export function useDuplicates(reg: RegistrationRow | undefined) {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["project_registration", "duplicates", String(reg?.id)],
    enabled: Boolean(reg),
    queryFn: async ({ signal }) =>
      (
        await data.getList("project_registration", {
          select: "id,status,end_customer,project_name,contact_name,contact_company,created_at",
          filters: [
            { column: "duplicate_key", op: "eq", value: String(reg?.duplicate_key) },
            { column: "id", op: "neq", value: String(reg?.id) },
          ],
          order: [{ column: "id", ascending: true }],
          range: [0, 49],
          signal,
        })
      ).data,
  });
}

export const useApproveRegistration = () =>
  useCommand("project_registration_approve", ["project_registration", "project", "company"]);
export const useRejectRegistration = () => useCommand("project_registration_reject", ["project_registration"]);
