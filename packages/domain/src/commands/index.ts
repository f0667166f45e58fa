import type { z } from "zod";
import { BOOKS_COMMANDS } from "./books.ts";
import { CHALLENGE_COMMANDS } from "./challenge.ts";
import { CLAIMS_COMMANDS } from "./claims.ts";
import { COMMISSION_COMMANDS } from "./commission.ts";
import { CRM_COMMANDS } from "./crm.ts";
import type { Command } from "./define.ts";
import { DOCUMENT_COMMANDS } from "./documents.ts";
import { DRIVER_COMMANDS } from "./driver.ts";
import { EXPENSE_COMMANDS } from "./expense.ts";
import { HR_COMMANDS } from "./hr.ts";
import { INBOX_COMMANDS } from "./inbox.ts";
import { INVENTORY_COMMANDS } from "./inventory.ts";
import { MARKETPLACE_COMMANDS } from "./marketplace.ts";
import { ORDERS_COMMANDS } from "./orders.ts";
import { PARTNERS_COMMANDS } from "./partners.ts";
import { PLATFORM_COMMANDS } from "./platform.ts";
import { POS_COMMANDS } from "./pos.ts";
import { PURCHASING_COMMANDS } from "./purchasing.ts";
import { REPORTS_COMMANDS } from "./reports.ts";
import { ROLEAPPS_COMMANDS } from "./roleapps.ts";
import { SCAN_COMMANDS } from "./scan.ts";
import { WAREHOUSE_COMMANDS } from "./warehouse.ts";

// Every /rest/v1/rpc command, declared once (issue 20 §2): the server implements each (implement() in
// apps/server/src/platform/rest/rpc/command.ts) and clients call them by name through the typed client
// (apps/web/src/platform/commands.ts) — `CommandArgs<"stock_levels">` is what to send, `CommandResult<…>` what comes
// back. A test checks that the server registers exactly these.

export * from "./define.ts";

export const COMMAND_LIST = [
  ...PLATFORM_COMMANDS,
  ...DOCUMENT_COMMANDS,
  ...PURCHASING_COMMANDS,
  ...INVENTORY_COMMANDS,
  ...BOOKS_COMMANDS,
  ...COMMISSION_COMMANDS,
  ...CHALLENGE_COMMANDS,
  ...HR_COMMANDS,
  ...INBOX_COMMANDS,
  ...CRM_COMMANDS,
  ...ORDERS_COMMANDS,
  ...CLAIMS_COMMANDS,
  ...PARTNERS_COMMANDS,
  ...REPORTS_COMMANDS,
  ...ROLEAPPS_COMMANDS,
  ...WAREHOUSE_COMMANDS,
  ...DRIVER_COMMANDS,
  ...POS_COMMANDS,
  ...MARKETPLACE_COMMANDS,
  ...EXPENSE_COMMANDS,
  ...SCAN_COMMANDS,
] as const;

type Listed = (typeof COMMAND_LIST)[number];
export type Commands = { [C in Listed as C["name"]]: C };
export type CommandName = keyof Commands;
export type CommandArgs<N extends CommandName> = z.input<Commands[N]["args"]>;
export type CommandResult<N extends CommandName> = z.output<Commands[N]["result"]>;
// What the server hands over for it (before the wire: a Date where the client reads an ISO string).
export type CommandAnswer<N extends CommandName> = z.input<Commands[N]["result"]>;

export const COMMANDS = Object.fromEntries(COMMAND_LIST.map((c) => [c.name, c])) as unknown as Commands;

export function findCommand(name: string): Command | undefined {
  return Object.hasOwn(COMMANDS, name) ? (COMMANDS as Record<string, Command>)[name] : undefined;
}
