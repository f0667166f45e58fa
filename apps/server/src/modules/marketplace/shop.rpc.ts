import { COMMANDS } from "@workmetrics/domain/commands";
import type { MarketplaceAccountView, MarketplaceListingView } from "@workmetrics/domain/commands/marketplace";
import { Decimal } from "decimal.js";
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { fail, wsOf } from "./parties.ts";

// Issue 23: a seller's public profile and its listings, and the buyers' search across every seller. A listing is a
// published snapshot of one product (title, price, stock shown as in / low / out): buyers never read the seller's
// product, cost or stock figures, and a later edit of the product changes no listing.

const ACCOUNT = sql`a.id, a.workspace_id::text, a.display_name, a.about, a.logo_url, a.categories, a.uen,
  a.delivery_areas, a.min_order_value::text, a.payment_terms, a.published, a.rating_count,
  case when a.rating_count > 0 then round(a.rating_total::numeric / a.rating_count, 1)::text end as rating_average`;

async function myAccount(tx: Tx, ws: string): Promise<MarketplaceAccountView | null> {
  const res = await tx.execute(sql`select ${ACCOUNT},
      (select count(*)::int from marketplace_product p where p.workspace_id = a.workspace_id and p.published) as listings
    from marketplace_account a where a.workspace_id = ${ws}::uuid`);
  return (res.rows[0] as MarketplaceAccountView | undefined) ?? null;
}

export const marketplaceAccountMine = implement(COMMANDS.marketplace_account_mine, {
  run: (tx, _args, caller) => myAccount(tx, wsOf(caller)),
});

export const marketplaceAccountSave = implement(COMMANDS.marketplace_account_save, {
  run: async (tx, args, caller) => {
    const ws = wsOf(caller);
    // The UEN shown is the workspace's own, as registered: a seller cannot claim another's.
    const uen = (await tx.execute(sql`select uen from workspace where id = ${ws}::uuid`)).rows[0] as {
      uen: string | null;
    };
    const arr = (v: string[]) =>
      `{${v.map((x) => `"${x.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`;
    await tx.execute(sql`insert into marketplace_account (workspace_id, display_name, about, logo_url, categories,
        uen, delivery_areas, min_order_value, payment_terms, published)
      values (${ws}::uuid, ${args.display_name}, ${args.about ?? null}, ${args.logo_url ?? null},
        ${arr(args.categories)}::text[], ${uen?.uen ?? null}, ${arr(args.delivery_areas)}::text[],
        ${args.min_order_value}, ${args.payment_terms ?? null}, ${args.published})
      on conflict (workspace_id) do update set display_name = excluded.display_name, about = excluded.about,
        logo_url = excluded.logo_url, categories = excluded.categories, uen = excluded.uen,
        delivery_areas = excluded.delivery_areas, min_order_value = excluded.min_order_value,
        payment_terms = excluded.payment_terms, published = excluded.published, updated_at = now()`);
    return (await myAccount(tx, ws)) as MarketplaceAccountView;
  },
});

// In / low / out from the product's stock on hand (every location): low below ten units or two minimum orders.
export async function stockOf(tx: Tx, ws: string, productId: number, moq: string) {
  const res = await tx.execute(sql`select coalesce(sum(qty), 0)::text as qty from stock_move
    where workspace_id = ${ws}::uuid and product_id = ${productId}`);
  const qty = new Decimal((res.rows[0] as { qty: string }).qty);
  const low = Decimal.max(10, new Decimal(moq).mul(2));
  const level = qty.lte(0) ? "out" : qty.lt(low) ? "low" : "in";
  return { qty: qty.toString(), level: level as MarketplaceListingView["stock_level"] };
}

const LISTING = (ws: string) => sql`p.id, p.account_id, p.product_id, p.title, p.description, p.category, p.unit,
  p.price::text, p.price_tiers, trim_scale(p.moq)::text as moq, p.lead_time_days, p.stock_level, p.show_stock,
  case when p.show_stock then trim_scale(p.stock_qty)::text end as stock_qty, p.photo_url, p.photos, p.published,
  a.display_name as seller_name,
  case when a.rating_count > 0 then round(a.rating_total::numeric / a.rating_count, 1)::text end as seller_rating,
  a.rating_count as seller_rating_count, p.workspace_id = ${ws}::uuid as mine
  from marketplace_product p join marketplace_account a on a.workspace_id = p.workspace_id and a.id = p.account_id`;

const listingRow = (r: Record<string, unknown>) =>
  ({
    ...r,
    price_tiers: typeof r.price_tiers === "string" ? JSON.parse(r.price_tiers) : r.price_tiers,
    photos: typeof r.photos === "string" ? JSON.parse(r.photos) : r.photos,
  }) as MarketplaceListingView;

// One listing as its seller sees it.
export async function listingView(tx: Tx, ws: string, id: number): Promise<MarketplaceListingView> {
  const res = await tx.execute(sql`select ${LISTING(ws)} where p.workspace_id = ${ws}::uuid and p.id = ${id}`);
  return listingRow(res.rows[0] as Record<string, unknown>);
}

export const marketplaceListingSave = implement(COMMANDS.marketplace_listing_save, {
  run: async (tx, args, caller) => {
    const ws = wsOf(caller);
    const acct = (await tx.execute(sql`select id from marketplace_account where workspace_id = ${ws}::uuid`)).rows[0] as
      | { id: number }
      | undefined;
    if (!acct) throw fail(409, "Open your seller profile first: buyers see it beside every listing");
    const product = (
      await tx.execute(sql`select id, name, unit, image_urls[1] as photo, active from product
        where workspace_id = ${ws}::uuid and id = ${args.product_id}`)
    ).rows[0] as { id: number; name: string; unit: string; photo: string | null; active: boolean } | undefined;
    if (!product) throw fail(422, `There is no product ${args.product_id} in your catalogue`, "product_id");
    if (!product.active && args.published) throw fail(422, `${product.name} is inactive`, "product_id");
    const tiers = [...args.price_tiers].sort((a, b) => new Decimal(a.min_qty).cmp(b.min_qty));
    tiers.forEach((t, i) => {
      if (new Decimal(t.min_qty).lte(args.moq)) {
        throw fail(
          422,
          `Tier ${i + 1} starts at or below the minimum order: the base price covers it`,
          `price_tiers.${i}`,
        );
      }
    });
    const stock = await stockOf(tx, ws, product.id, args.moq);
    const values = sql`${args.title}, ${args.description ?? null}, ${args.category ?? null}, ${product.unit},
      ${args.price}, ${JSON.stringify(tiers)}::jsonb, ${args.moq}, ${args.lead_time_days}, ${stock.level},
      ${args.show_stock}, ${args.show_stock ? stock.qty : null}, ${args.photo_url ?? product.photo ?? null},
      ${args.published}`;
    let id: number;
    if (args.id) {
      const upd = await tx.execute(sql`update marketplace_product set (title, description, category, unit, price,
          price_tiers, moq, lead_time_days, stock_level, show_stock, stock_qty, photo_url, published) = (${values}),
          product_id = ${product.id}, published_at = case when ${args.published} then coalesce(published_at, now()) end,
          updated_at = now()
        where workspace_id = ${ws}::uuid and id = ${args.id} returning id`);
      if (!upd.rows.length) throw fail(404, `There is no listing ${args.id} of yours`);
      id = args.id;
    } else {
      const ins = await tx.execute(sql`insert into marketplace_product (workspace_id, account_id, product_id, title,
          description, category, unit, price, price_tiers, moq, lead_time_days, stock_level, show_stock, stock_qty,
          photo_url, published, published_at)
        values (${ws}::uuid, ${acct.id}, ${product.id}, ${values}, case when ${args.published} then now() end)
        on conflict (workspace_id, product_id) do nothing returning id`);
      if (!ins.rows.length) throw fail(409, `${product.name} is listed already: edit its listing`, "product_id");
      id = Number((ins.rows[0] as { id: number }).id);
    }
    return listingView(tx, ws, id);
  },
});

// One table read per search: a listing carries its seller's `published` and one lower-cased search text (title,
// category, seller; kept by triggers, migration 0051) under a trigram index; the browse order (title, id) has its
// own partial index, and the category list is read by skipping through the category index (a loose index scan).
export const marketplaceSearch = implement(COMMANDS.marketplace_search, {
  run: async (tx, args, caller) => {
    const ws = wsOf(caller);
    const open = sql`p.published and p.seller_published`;
    const where: SQL[] = [
      args.mine ? sql`p.workspace_id = ${ws}::uuid` : sql`${open} and p.workspace_id <> ${ws}::uuid`,
    ];
    if (args.q) {
      const like = `%${args.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push(sql`p.search_text like ${like}`);
    }
    if (args.category) where.push(sql`p.category = ${args.category}`);
    if (args.max_price) where.push(sql`p.price <= ${args.max_price}`);
    if (args.max_lead_time_days !== undefined) where.push(sql`p.lead_time_days <= ${args.max_lead_time_days}`);
    if (args.seller_account_id) where.push(sql`p.account_id = ${args.seller_account_id}`);
    const cond = sql.join(where, sql` and `);
    const res = await tx.execute(sql`select ${LISTING(ws)} where ${cond}
      order by p.title, p.id limit ${args.limit} offset ${args.offset}`);
    const cats = args.mine
      ? await tx.execute(sql`select distinct p.category from marketplace_product p
          where p.workspace_id = ${ws}::uuid and p.category is not null order by 1 limit 200`)
      : await tx.execute(sql`with recursive c(category, n) as (
            (select p.category, 1 from marketplace_product p where ${open} and p.category is not null
              order by p.category limit 1)
            union all
            select (select p.category from marketplace_product p where ${open} and p.category > c.category
              order by p.category limit 1), c.n + 1
            from c where c.category is not null and c.n < 200)
          select category from c where category is not null`);
    return {
      rows: (res.rows as Array<Record<string, unknown>>).map(listingRow),
      categories: (cats.rows as Array<{ category: string }>).map((c) => c.category),
    };
  },
});
