import { z } from "zod";
import { MARKETPLACE_ORDER_STATUSES, STOCK_LEVELS } from "../db/marketplace-schema.ts";
import { dbId, decimal, defineCommand, id, instant } from "./define.ts";

// Issue 23: the marketplace (Premium, both sides; DESIGN §2.3.2), implemented in apps/server/src/modules/marketplace.
// Every command needs the marketplace feature in the caller's workspace; placing and accepting check the other
// party's tier too (a seller who moved down to Pro takes no new orders).

const money = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,12}(\.\d{1,2})?$/.test(v), "Give an amount like 12.50 (at most 2 decimals)");
const quantity = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,10}(\.\d{1,3})?$/.test(v) && Number(v) > 0, "Give a quantity above 0 (at most 3 decimals)");
const words = (max: number) => z.string().trim().max(max, `At most ${max} characters`);
const list = z.array(z.string().trim().min(1).max(80)).max(30, "At most 30").default([]);

export const marketplaceAccountView = z.object({
  id: dbId,
  workspace_id: z.string(),
  display_name: z.string(),
  about: z.string().nullable(),
  logo_url: z.string().nullable(),
  categories: z.array(z.string()),
  uen: z.string().nullable(),
  delivery_areas: z.array(z.string()),
  min_order_value: decimal,
  payment_terms: z.string().nullable(),
  published: z.boolean(),
  rating_count: z.number(),
  rating_average: z.string().nullable(),
  listings: z.number().optional(),
});
export type MarketplaceAccountView = z.output<typeof marketplaceAccountView>;

export const marketplaceAccountSave = defineCommand({
  name: "marketplace_account_save",
  args: z.object({
    display_name: words(120).min(1, "Give the name buyers see"),
    about: words(4000).nullish(),
    logo_url: words(2048).nullish(),
    categories: list,
    delivery_areas: list,
    min_order_value: money.default("0"),
    payment_terms: words(200).nullish(),
    published: z.boolean().default(false),
  }),
  result: marketplaceAccountView,
  permission: "marketplace_account.update",
  does: "keep the marketplace seller profile",
  feature: "marketplace",
});

// The caller's own seller profile (null before they open one).
export const marketplaceAccountMine = defineCommand({
  name: "marketplace_account_mine",
  args: z.object({}).optional(),
  result: marketplaceAccountView.nullable(),
  permission: "marketplace_product.read",
  does: "browse the marketplace",
  feature: "marketplace",
});

const tier = z.object({ min_qty: quantity, price: money });

// A listing's own photos (issue 23): at most six, each a JPEG, PNG or WebP of at most 5 MB (the web compresses a
// photo to a JPEG of at most 1600 px first, as the driver's proof), kept in the seller's files bucket.
export const MAX_LISTING_PHOTOS = 6;
export const MAX_LISTING_PHOTO_BYTES = 5 * 1024 * 1024;
export const LISTING_PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
export const listingPhotoView = z.object({ id: z.string(), name: z.string(), mime: z.string(), size: z.number() });
export type ListingPhotoView = z.output<typeof listingPhotoView>;

export const marketplaceListingView = z.object({
  id: dbId,
  account_id: dbId,
  product_id: dbId,
  title: z.string(),
  description: z.string().nullable(),
  category: z.string().nullable(),
  unit: z.string().nullable(),
  price: decimal,
  price_tiers: z.array(z.object({ min_qty: z.string(), price: z.string() })),
  moq: decimal,
  lead_time_days: z.number(),
  stock_level: z.enum(STOCK_LEVELS),
  show_stock: z.boolean(),
  stock_qty: decimal.nullable(),
  photo_url: z.string().nullable(),
  photos: z.array(listingPhotoView),
  published: z.boolean(),
  seller_name: z.string(),
  seller_rating: z.string().nullable(),
  seller_rating_count: z.number(),
  mine: z.boolean(),
});
export type MarketplaceListingView = z.output<typeof marketplaceListingView>;

export const marketplaceListingSave = defineCommand({
  name: "marketplace_listing_save",
  args: z.object({
    id: id.optional(),
    product_id: id,
    title: words(200).min(1, "Give the listing a title"),
    description: words(4000).nullish(),
    category: words(80).nullish(),
    price: money,
    price_tiers: z.array(tier).max(10, "At most 10 price tiers").default([]),
    moq: quantity.default("1"),
    lead_time_days: z
      .number()
      .int("Give whole days")
      .min(0, "Lead time cannot be negative")
      .max(365, "At most 365 days")
      .default(0),
    show_stock: z.boolean().default(false),
    photo_url: words(2048).nullish(),
    published: z.boolean().default(true),
  }),
  result: marketplaceListingView,
  permission: "marketplace_product.create",
  does: "publish listings on the marketplace",
  feature: "marketplace",
});

const photoId = z.string().uuid("Name one of the listing's photos");

// Adds a photo to one of the caller's listings: uploaded (a data URL) or taken from a file of the workspace's files
// bucket (the product's files). It goes last; the first photo is the one buyers see on the listing's card.
export const marketplaceListingPhotoAdd = defineCommand({
  name: "marketplace_listing_photo_add",
  args: z
    .object({
      marketplace_product_id: id,
      name: words(200).min(1, "Name the photo").optional(),
      data: z
        .string()
        .max(7_000_000, "The photo is larger than 5 MB")
        .regex(/^data:[\w.+-]+\/[\w.+-]+;base64,[A-Za-z0-9+/]+=*$/, "Send the photo as a base64 data URL")
        .optional(),
      file_path: words(1024).min(1).optional(),
    })
    .refine((v) => (v.data === undefined) !== (v.file_path === undefined), {
      message: "Upload a photo or choose one of your files",
      path: ["data"],
    }),
  result: marketplaceListingView,
  permission: "marketplace_product.create",
  does: "publish listings on the marketplace",
  feature: "marketplace",
});

export const marketplaceListingPhotoRemove = defineCommand({
  name: "marketplace_listing_photo_remove",
  args: z.object({ marketplace_product_id: id, photo_id: photoId }),
  result: marketplaceListingView,
  permission: "marketplace_product.create",
  does: "publish listings on the marketplace",
  feature: "marketplace",
});

// The listing's photos in a new order: every photo named once.
export const marketplaceListingPhotoOrder = defineCommand({
  name: "marketplace_listing_photo_order",
  args: z.object({ marketplace_product_id: id, photo_ids: z.array(photoId).max(MAX_LISTING_PHOTOS) }),
  result: marketplaceListingView,
  permission: "marketplace_product.create",
  does: "publish listings on the marketplace",
  feature: "marketplace",
});

// One photo of a listing, read by its seller or by any buyer while the listing and its seller are published.
export const marketplaceListingPhoto = defineCommand({
  name: "marketplace_listing_photo",
  args: z.object({ marketplace_product_id: id, photo_id: photoId }),
  result: z.object({ name: z.string(), mime: z.string(), size: z.number(), data_url: z.string() }),
  permission: "marketplace_product.read",
  does: "browse the marketplace",
  feature: "marketplace",
});

export const marketplaceSearch = defineCommand({
  name: "marketplace_search",
  args: z.object({
    q: words(200).optional(),
    category: words(80).optional(),
    max_price: money.optional(),
    max_lead_time_days: z.number().int().min(0).max(365).optional(),
    seller_account_id: id.optional(),
    mine: z.boolean().optional(), // the caller's own listings, published or not
    limit: z.number().int().min(1).max(200).default(50),
    offset: z.number().int().min(0).max(100_000).default(0),
  }),
  result: z.object({ rows: z.array(marketplaceListingView), categories: z.array(z.string()) }),
  permission: "marketplace_product.read",
  does: "browse the marketplace",
  feature: "marketplace",
});

export const marketplaceOrderLineView = z.object({
  id: dbId,
  marketplace_product_id: dbId,
  title: z.string(),
  unit: z.string().nullable(),
  qty: decimal,
  unit_price: decimal,
  line_total: decimal,
});

export const marketplaceOrderView = z.object({
  id: dbId,
  number: z.string(),
  side: z.enum(["buyer", "seller"]),
  seller_name: z.string(),
  buyer_name: z.string(),
  seller_account_id: dbId,
  status: z.enum(MARKETPLACE_ORDER_STATUSES),
  note: z.string().nullable(),
  reject_reason: z.string().nullable(),
  subtotal: decimal,
  tax_total: decimal,
  total: decimal,
  placed_at: instant,
  decided_at: instant.nullable(),
  sales_order_id: dbId.nullable(), // the seller's, shown to the seller only
  purchase_order_id: dbId.nullable(), // the buyer's, shown to the buyer only
  delivered: decimal,
  invoiced: decimal,
  received: decimal,
  paid: decimal,
  fulfilled_at: instant.nullable(),
  rating: z.number().nullable(),
  rating_note: z.string().nullable(),
  thread_id: dbId.nullable(),
  lines: z.array(marketplaceOrderLineView),
});
export type MarketplaceOrderView = z.output<typeof marketplaceOrderView>;

export const marketplaceOrderPlace = defineCommand({
  name: "marketplace_order_place",
  args: z.object({
    seller_account_id: id,
    lines: z
      .array(z.object({ marketplace_product_id: id, qty: quantity }))
      .min(1, "Add at least one listing to the order")
      .max(100, "At most 100 lines"),
    note: words(2000).nullish(),
  }),
  result: marketplaceOrderView,
  permission: "marketplace_sales_order.create",
  does: "order on the marketplace",
  feature: "marketplace",
});

export const marketplaceOrderAccept = defineCommand({
  name: "marketplace_order_accept",
  args: z.object({ id }),
  result: marketplaceOrderView,
  permission: "marketplace_sales_order.approve",
  does: "accept marketplace orders",
  feature: "marketplace",
});

export const marketplaceOrderReject = defineCommand({
  name: "marketplace_order_reject",
  args: z.object({ id, reason: words(1000).min(1, "Say why the order is rejected") }),
  result: marketplaceOrderView,
  permission: "marketplace_sales_order.approve",
  does: "reject marketplace orders",
  feature: "marketplace",
});

// The buyer cancels an order the seller has not yet accepted.
export const marketplaceOrderCancel = defineCommand({
  name: "marketplace_order_cancel",
  args: z.object({ id, reason: words(1000).nullish() }),
  result: marketplaceOrderView,
  permission: "marketplace_sales_order.create",
  does: "cancel marketplace orders",
  feature: "marketplace",
});

export const marketplaceOrderRate = defineCommand({
  name: "marketplace_order_rate",
  args: z.object({
    id,
    rating: z.number().int("Rate 1 to 5").min(1, "Rate 1 to 5").max(5, "Rate 1 to 5"),
    note: words(1000).nullish(),
  }),
  result: marketplaceOrderView,
  permission: "marketplace_sales_order.create",
  does: "rate marketplace sellers",
  feature: "marketplace",
});

// The caller's workspace's marketplace orders, bought and sold, each side's progress brought up to date first.
export const marketplaceOrders = defineCommand({
  name: "marketplace_orders",
  args: z.object({ side: z.enum(["buyer", "seller"]).optional(), id: id.optional() }).optional(),
  result: z.array(marketplaceOrderView),
  permission: "marketplace_sales_order.read",
  does: "read marketplace orders",
  feature: "marketplace",
});

export const marketplaceThreadView = z.object({
  id: dbId,
  subject: z.string(),
  side: z.enum(["buyer", "seller"]),
  other_name: z.string(),
  marketplace_product_id: dbId.nullable(),
  marketplace_sales_order_id: dbId.nullable(),
  last_message_at: instant,
  last_message: z.string().nullable(),
  unread: z.number(),
});
export type MarketplaceThreadView = z.output<typeof marketplaceThreadView>;

export const marketplaceMessageView = z.object({
  id: dbId,
  thread_id: dbId,
  sender_workspace_id: z.string(),
  sender_name: z.string(),
  body: z.string(),
  attachment_url: z.string().nullable(),
  attachment_name: z.string().nullable(), // a file sent with the message (marketplace_attachment reads it)
  attachment_size: z.number().nullable(),
  created_at: instant,
  mine: z.boolean(),
});
export type MarketplaceMessageView = z.output<typeof marketplaceMessageView>;

export const marketplaceMessageSend = defineCommand({
  name: "marketplace_message_send",
  args: z
    .object({
      thread_id: id.optional(),
      marketplace_product_id: id.optional(),
      marketplace_sales_order_id: id.optional(),
      body: words(4000).min(1, "Write a message"),
      attachment_url: words(2048).nullish(),
      // A file for the other party: its name and its bytes as a data URL (base64), at most 5 MB.
      attachment: z
        .object({
          name: words(200).min(1, "Name the file"),
          data: z
            .string()
            .max(7_000_000, "The file is larger than 5 MB")
            .regex(/^data:[\w.+-]+\/[\w.+-]+;base64,[A-Za-z0-9+/]+=*$/, "Send the file as a base64 data URL"),
        })
        .optional(),
    })
    .refine(
      (v) =>
        [v.thread_id, v.marketplace_product_id, v.marketplace_sales_order_id].filter((x) => x !== undefined).length ===
        1,
      { message: "Name one of thread_id, marketplace_product_id or marketplace_sales_order_id", path: ["thread_id"] },
    ),
  result: marketplaceMessageView,
  permission: "marketplace_message.create",
  does: "chat on the marketplace",
  feature: "marketplace",
});

export const marketplaceThreads = defineCommand({
  name: "marketplace_threads",
  args: z.object({}).optional(),
  result: z.object({ threads: z.array(marketplaceThreadView), unread: z.number() }),
  permission: "marketplace_message.read",
  does: "read marketplace chats",
  feature: "marketplace",
});

// A thread's messages (the newest 200), marking it read for the caller.
export const marketplaceThreadMessages = defineCommand({
  name: "marketplace_thread_messages",
  args: z.object({ thread_id: id }),
  result: z.object({ thread: marketplaceThreadView, messages: z.array(marketplaceMessageView) }),
  permission: "marketplace_message.read",
  does: "read marketplace chats",
  feature: "marketplace",
});

// A file sent in a marketplace chat, read by a member of either party (base64).
export const marketplaceAttachment = defineCommand({
  name: "marketplace_attachment",
  args: z.object({ message_id: id }),
  result: z.object({ name: z.string(), mime: z.string(), size: z.number(), data: z.string() }),
  permission: "marketplace_message.read",
  does: "read marketplace chats",
  feature: "marketplace",
});

export const MARKETPLACE_COMMANDS = [
  marketplaceAccountSave,
  marketplaceAccountMine,
  marketplaceListingSave,
  marketplaceListingPhotoAdd,
  marketplaceListingPhotoRemove,
  marketplaceListingPhotoOrder,
  marketplaceListingPhoto,
  marketplaceSearch,
  marketplaceOrderPlace,
  marketplaceOrderAccept,
  marketplaceOrderReject,
  marketplaceOrderCancel,
  marketplaceOrderRate,
  marketplaceOrders,
  marketplaceMessageSend,
  marketplaceThreads,
  marketplaceThreadMessages,
  marketplaceAttachment,
] as const;
