// Spec §3: messaging channels with fixed ids.
export const CHANNEL = { WhatsApp: 1, Facebook: 2, Instagram: 3, SalesEmail: 4 } as const;

export const CHANNELS = [
  { id: CHANNEL.WhatsApp, title: "WhatsApp", slug: "whatsapp" },
  { id: CHANNEL.Facebook, title: "Facebook", slug: "facebook" },
  { id: CHANNEL.Instagram, title: "Instagram", slug: "instagram" },
  { id: CHANNEL.SalesEmail, title: "Sales Email", slug: "sales-email" },
] as const;

// Spec §3: the default company every workspace has.
export const DEFAULT_COMPANY = { id: 9, title: "Walk-in Customer" } as const;
