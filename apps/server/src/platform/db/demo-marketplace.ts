import { TIER } from "@workmetrics/domain";
import { ROLE } from "@workmetrics/domain/roles";

// DESIGN §3.2 / issue 23: `orchard` — Orchard Retail Group, Premium, a buyer of `demo`'s goods on the marketplace.
// Its owner and its procurement officer; master data of a small business (the `lite` profile's), no year of trading
// of its own: what it has bought on the marketplace is its story (demo-marketplace-trade.ts).
export const ORCHARD_WORKSPACE = {
  slug: "orchard",
  name: "Orchard Retail Group",
  tierId: TIER.Premium,
  domain: "orchard.test",
  team: [
    { local: "owner", name: "Grace Lee", roleId: ROLE.Owner },
    { local: "procurement", name: "Benjamin Ong", roleId: 41 },
  ],
  colors: ["Green", "-"],
  business: {
    businessAddress: "391 Orchard Road\n#12-01\nSingapore 238872",
    uen: "200511223D",
    gstRegistrationNumber: "200511223D",
  },
} as const;
