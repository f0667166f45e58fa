import { readFileSync } from "node:fs";
import path from "node:path";

export const VERSION: string =
  JSON.parse(readFileSync(path.join(import.meta.dirname, "../../../package.json"), "utf8")).version ?? "0.0.0";
