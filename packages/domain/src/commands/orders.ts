import { z } from "zod";
import { defineCommand, id } from "./define.ts";

// Issue 10 §2: an order form and its products saved together (the form page's Save), the fields validated by the
// resources' own schemas on the server; answers the form with its token, for the link.

const row = z.record(z.string(), z.unknown());

export const orderFormSave = defineCommand({
  name: "order_form_save",
  args: z.object({ id: id.optional(), form: row, items: z.array(row).max(500) }),
  result: z.object({ id: z.number(), token: z.string() }),
  permission: null, // order_form.create or .update, decided inside by whether an id is given
});

export const ORDERS_COMMANDS = [orderFormSave] as const;
