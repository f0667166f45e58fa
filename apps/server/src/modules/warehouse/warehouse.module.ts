import type { DocumentType } from "@workmetrics/domain/documents/machine";
import { PICK_LIST, PICK_LIST_MADE_FROM } from "@workmetrics/domain/documents/types/pick-list";
import type { DocSnapshot } from "@workmetrics/domain/documents/types/snapshot";
import { STOCK_COUNT } from "@workmetrics/domain/documents/types/stock-count";
import {
  pickListLineResource,
  pickListResource,
  stockCountLineResource,
  stockCountResource,
} from "@workmetrics/domain/resources/warehouse";
import { registerDocumentType } from "../../platform/documents/registry.ts";
import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import { binOrder, PICK_LIST_EFFECTS } from "./pick-list.effects.ts";
import { STOCK_COUNT_EFFECTS } from "./stock-count.effects.ts";
import {
  pickListFinish,
  pickListMake,
  pickListPick,
  stockCountSheet,
  stockCountSubmit,
  warehouseMove,
  warehouseReceiptsDue,
  warehouseReceive,
} from "./warehouse.rpc.ts";

const machine = (t: unknown) => t as DocumentType<string, DocSnapshot>;

// Issue 22 "Warehouse": pick lists and stock counts on the documents engine (after the selling and order documents
// they are made from), and the warehouse app's commands.
export function registerWarehouse(): void {
  registerDocumentType({
    machine: machine(PICK_LIST),
    header: pickListResource,
    lines: pickListLineResource,
    madeFrom: PICK_LIST_MADE_FROM,
    prepareConvert: binOrder,
    effects: PICK_LIST_EFFECTS,
  });
  registerDocumentType({
    machine: machine(STOCK_COUNT),
    header: stockCountResource,
    lines: stockCountLineResource,
    effects: STOCK_COUNT_EFFECTS,
  });
  registerRpc(
    warehouseReceiptsDue,
    warehouseReceive,
    pickListMake,
    pickListPick,
    pickListFinish,
    warehouseMove,
    stockCountSheet,
    stockCountSubmit,
  );
}
