import { type SQL, sql } from "drizzle-orm";

// Who a sale belongs to — one rule for sales by salesperson, commission statements and the team challenge's goals.
// The documents carry no salesperson column, so the salesperson of a deal is the author of the document that started
// it: a sales order made from a quotation is the quotation's author's (the salesperson who quoted and won it, even
// when a manager confirms the order); an invoice is its sales order's salesperson's, billed directly or through a
// delivery order (made from the order or from a delivery instruction of it), since invoices are usually raised by
// accounts staff who made no sale; a credit note is the salesperson's of the invoice it credits. A document with
// nothing before it in the chain (a direct invoice, an order from the customer portal) is its author's.

export type SoldDocument = "quotation" | "sales_order" | "invoice" | "credit_note";

const col = (alias: string, column: string) => sql.raw(`${alias}.${column}`);

// The salesperson of the row `alias` of a sales order: the author of the quotation it was made from, else its own.
function orderSeller(a: string): SQL {
  return sql`coalesce((select sp_q.created_by from quotation sp_q where ${col(a, "source_type")} = 'quotation'
      and sp_q.workspace_id = ${col(a, "workspace_id")} and sp_q.id = ${col(a, "source_id")}), ${col(a, "created_by")})`;
}

// The sales order an invoice row `alias` bills: its source, or its delivery order's (from the order or from one of
// its delivery instructions).
function billedOrder(a: string): SQL {
  return sql`case ${col(a, "source_type")}
    when 'sales_order' then ${col(a, "source_id")}
    when 'delivery_order' then (select case sp_d.source_type when 'sales_order' then sp_d.source_id
        when 'delivery_instruction' then (select sp_di.source_id from delivery_instruction sp_di
          where sp_di.workspace_id = sp_d.workspace_id and sp_di.id = sp_d.source_id
            and sp_di.source_type = 'sales_order') end
      from delivery_order sp_d where sp_d.workspace_id = ${col(a, "workspace_id")} and sp_d.id = ${col(a, "source_id")})
    end`;
}

function invoiceSeller(a: string): SQL {
  return sql`coalesce((select ${orderSeller("sp_so")} from sales_order sp_so
      where sp_so.workspace_id = ${col(a, "workspace_id")} and sp_so.id = ${billedOrder(a)}), ${col(a, "created_by")})`;
}

function creditNoteSeller(a: string): SQL {
  return sql`coalesce((select ${invoiceSeller("sp_i")} from invoice sp_i
      where sp_i.workspace_id = ${col(a, "workspace_id")} and sp_i.id = ${col(a, "invoice_id")}), ${col(a, "created_by")})`;
}

// The salesperson (a user id) of the `type` row named `alias` in the surrounding query.
export function salespersonOf(type: SoldDocument, alias: string): SQL {
  if (!/^[a-z_][a-z0-9_]*$/.test(alias)) throw new Error(`${alias} is not a table alias`);
  switch (type) {
    case "quotation":
      return col(alias, "created_by");
    case "sales_order":
      return orderSeller(alias);
    case "invoice":
      return invoiceSeller(alias);
    case "credit_note":
      return creditNoteSeller(alias);
  }
}
