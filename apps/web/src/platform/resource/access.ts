import {
  type AccessDef,
  type Decision,
  decide,
  decideResource,
  type Member,
  type Requirement,
  type ResourceAction,
} from "@workmetrics/domain";
import { useCallback, useMemo } from "react";
import { useViewer } from "../session/viewer.tsx";
import { type Readable, readableBy } from "./definition.ts";

// The screens ask the domain's one access rule (react-admin's canAccess), with the member the server checks:
// the effective permissions and tier the profile reports. What it refuses is not offered.

export function useMember(): Member {
  return useViewer().member;
}

// Whether the signed-in member may do `action` on `def`.
export function useCan(def: AccessDef): (action: ResourceAction) => boolean {
  const who = useMember();
  return useCallback((action: ResourceAction) => decideResource(who, def, action).allowed, [who, def]);
}

export function useDecision(need: Requirement): Decision {
  return decide(useMember(), need);
}

// The decision itself, for a page that says why it offers nothing.
export function useResourceDecision(def: AccessDef, action: ResourceAction): Decision {
  return decideResource(useMember(), def, action);
}

// Which resources the member reads (for the embeds and reference columns a page asks for).
export function useReadable(): Readable {
  const who = useMember();
  return useMemo(() => readableBy(who), [who]);
}
