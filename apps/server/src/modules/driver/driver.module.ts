import { addEffect } from "../../platform/documents/registry.ts";
import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import {
  assignDriverEffect,
  deliveryArrive,
  deliveryDeliver,
  deliveryDispatch,
  deliveryFail,
  deliveryReorder,
  deliveryTrip,
} from "./driver.rpc.ts";

// Issue 22 "Driver": the driver app's commands (the trip, a stop's arrival, delivery with its proof or failure) and
// dispatch from the back office. Registered after the documents module: the delivery order's assign_driver action
// takes only drivers, and sends a failed delivery back on the road.
export function registerDriver(): void {
  registerRpc(deliveryTrip, deliveryReorder, deliveryArrive, deliveryDeliver, deliveryFail, deliveryDispatch);
  addEffect("delivery_order", "assign_driver", assignDriverEffect);
}
