import type { Config } from "../../config.ts";
import type { Db } from "../db/database.ts";
import type { Jobs } from "../jobs/worker.ts";
import type { sealer } from "./crypto.ts";
import type { Signer } from "./jwt.ts";
import type { Mailer } from "./mail.ts";

// Everything the auth routes share, built once when the plugin registers.
export type AuthDeps = {
  db: Db;
  config: Config;
  signer: Signer;
  totpSealer: ReturnType<typeof sealer>;
  mailer: Mailer;
  jobs: Pick<Jobs, "enqueue">; // auth mails go through the server's outbox (issue 20 §1)
};

export type ClientMeta = { ip: string; userAgent: string | null };
