import type { SupabaseClient } from "@supabase/supabase-js";
import { ANONYMOUS, type Member } from "@workmetrics/domain";
import { createContext, useContext } from "react";

// What the generic layer knows of the signed-in person: the data client, who they are for the access rule, and
// the workspace's currency. The app's session provides it (arrows point down: platform never imports app).
export type Viewer = {
  client: SupabaseClient | null;
  member: Member; // ANONYMOUS until the database user is loaded
  known: boolean; // the member is loaded (before that nothing is offered or refused)
  currency: string;
};

const NOBODY: Viewer = { client: null, member: ANONYMOUS, known: false, currency: "SGD" };

const ViewerCtx = createContext<Viewer>(NOBODY);

export const ViewerProvider = ViewerCtx.Provider;

export const useViewer = (): Viewer => useContext(ViewerCtx);
