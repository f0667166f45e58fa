import type { InboxConfig } from "../../config.ts";
import type { Mailer } from "../auth/mail.ts";
import type { FileStore } from "../storage/disk.ts";
import type { Jobs } from "./worker.ts";

// Issue 20 §1: every dependency a command uses comes from the server it runs in (the 4th argument of an rpc's
// `run`), not from module state — two servers in one process never share a mailer or a queue. A command does not
// send mail itself: it enqueues it (mail.ts) in its transaction, and the server's worker sends it with `mailer`.
export type CommandDeps = {
  jobs: Pick<Jobs, "enqueue">;
  mailer: Mailer;
  clock: () => Date;
  // Where e-mailed links point: PUBLIC_URL and the workspace hosts under BASE_DOMAIN (DESIGN §3.3).
  links: { publicUrl: string; baseDomain: string };
  // Where a command that keeps a file writes its bytes (a delivery's proof, issue 22); absent in the seed.
  disk?: FileStore;
  // Issue 24: Meta's and Microsoft's addresses and the key channel tokens are sealed with; absent in the seed.
  inbox?: InboxConfig | null;
  // The server's log, for what a command tolerates but someone should see (a Graph call that failed on disconnect).
  log?: { warn(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };
};

declare module "fastify" {
  interface FastifyInstance {
    deps: CommandDeps; // decorated by buildApp (app.ts)
    jobs: Jobs;
  }
}

// The demo seed runs commands before any server exists: it queues nothing and mails nobody.
export const SEED_DEPS: CommandDeps = {
  jobs: { enqueue: async () => null },
  mailer: {
    send: async () => {
      throw new Error("The seed sends no mail");
    },
  },
  clock: () => new Date(),
  links: { publicUrl: "http://localhost", baseDomain: "localhost" },
};
