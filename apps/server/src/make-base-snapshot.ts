// Run by `npm run build` (scripts/build-server.mjs): the migrated schema a new embedded database starts from.
import { makeBaseSnapshot } from "./platform/db/base-snapshot.ts";

const { bytes, ms } = await makeBaseSnapshot();
console.log(`embedded database's base snapshot made in ${ms} ms (${(bytes / 1e6).toFixed(1)} MB)`);
