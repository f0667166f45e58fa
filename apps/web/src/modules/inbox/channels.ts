// Spec §3's channel ids and their names.
export const CHANNEL_LABEL: Record<number, string> = { 1: "WhatsApp", 2: "Facebook", 3: "Instagram", 4: "Sales Email" };
export const CHANNEL_SLUG = { whatsapp: 1, facebook: 2, instagram: 3 } as const;
