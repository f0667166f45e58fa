import { COMMANDS, type CommandAnswer } from "@workmetrics/domain/commands";
import { orderFormItemResource, orderFormResource } from "@workmetrics/domain/resources/orders";
import { sql } from "drizzle-orm";
import { parse, type Shape } from "../../platform/documents/save.ts";
import { insertRows, updateRow } from "../../platform/documents/store.ts";
import { requireAllowed } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";

// Issue 10 §2: an order form and its products saved together, in one transaction (the form page's Save): the form's
// fields and each product's price and minimum validated by the resources' own schemas; the products replace the
// form's. Answers the form with its token, for the link.

export const orderFormSave = implement(COMMANDS.order_form_save, {
  run: async (tx, args, caller) => {
    requireAllowed(orderFormResource, caller, args.id ? "update" : "create");
    const ws = caller.workspaceId as string;
    const form = parse(orderFormResource.insert as unknown as Shape, args.form, "form");
    const itemSchema = (orderFormItemResource.insert as unknown as Shape).omit({ order_form_id: true });
    const items = args.items.map((item, i) => parse(itemSchema as Shape, item, `items.${i}`));
    const seen = new Set<number>();
    items.forEach((item, i) => {
      const product = Number(item.product_id);
      if (seen.has(product)) {
        const message = "This product is already on the form";
        throw new RestError(422, "validation_failed", message, [{ field: `items.${i}.product_id`, message }]);
      }
      seen.add(product);
    });
    let id = args.id;
    if (id) {
      const found = await tx.execute(sql`select id from order_form where workspace_id = ${ws}::uuid and id = ${id}
        for update`);
      if (found.rows.length === 0)
        throw new RestError(404, "PGRST116", `There is no order form ${id} in this workspace`);
      await updateRow(tx, orderFormResource, ws, id, form);
      await tx.execute(sql`delete from order_form_item where workspace_id = ${ws}::uuid and order_form_id = ${id}`);
    } else {
      const [created] = await insertRows(tx, orderFormResource, [{ ...form, workspace_id: ws }], true);
      id = Number(created.id);
    }
    await insertRows(
      tx,
      orderFormItemResource,
      items.map((item, i) => ({
        workspace_id: ws,
        order_form_id: id,
        product_id: item.product_id,
        price: item.price,
        min_qty: item.min_qty ?? "1",
        sort_order: i,
      })),
    );
    const res = await tx.execute(sql`select id, token from order_form where workspace_id = ${ws}::uuid and id = ${id}`);
    return res.rows[0] as CommandAnswer<"order_form_save">;
  },
});
