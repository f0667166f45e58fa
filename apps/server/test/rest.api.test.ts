import { RESOURCES } from "@workmetrics/domain/resources";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rest, restFetch } from "./rest-helpers.ts";

// Issue 5 item 3: postgrest-js against /rest/v1 for everything the web relies on.

const ADMIN = "admin@demo.test";
const tag = `T${Date.now().toString(36).toUpperCase()}`;
type Row = Record<string, unknown>;

let categoryId = 0;
let brandId = 0;

beforeAll(async () => {
  const db = await rest(ADMIN);
  const cat = await db
    .from("category")
    .insert({ name: `${tag} Test category` })
    .select("id")
    .single();
  expect(cat.error).toBeNull();
  categoryId = (cat.data as { id: number }).id;
  const br = await db
    .from("brand")
    .insert({ name: `${tag} Brand` })
    .select("id")
    .single();
  brandId = (br.data as { id: number }).id;
  // Four products with known prices, tags and nulls for the filter and order checks.
  const { error } = await db.from("product").insert([
    {
      sku: `${tag}-A`,
      name: `${tag} Alpha anchor`,
      price: "10.00",
      cost: 4,
      category_id: categoryId,
      image_urls: ["a.png", "b.png"],
    },
    {
      sku: `${tag}-B`,
      name: `${tag} Bravo bolt`,
      price: 20.5,
      category_id: categoryId,
      brand_id: brandId,
      image_urls: ["b.png"],
      description: "zinc",
    },
    { sku: `${tag}-C`, name: `${tag} Charlie cable`, price: "30.25", active: false, description: "copper" },
    { sku: `${tag}-D`, name: `${tag} Delta drill`, price: "99.99", brand_id: brandId, is_stock_tracked: false },
  ]);
  expect(error).toBeNull();
});

const skus = (rows: unknown) =>
  (rows as Row[])
    .map((r) => String(r.sku).slice(-1))
    .sort()
    .join("");

describe("select", () => {
  it("embeds to-one relations with aliases, nested, in one answer", async () => {
    const db = await rest(ADMIN);
    const { data, error } = await db
      .from("product")
      .select("code:sku, title:name, price, category:category(name, parent:parent(name)), maker:brand(name)")
      .like("sku", `${tag}-*`)
      .order("sku");
    expect(error).toBeNull();
    const rows = data as unknown as Row[];
    expect(rows).toHaveLength(4);
    expect(rows[0]).toEqual({
      code: `${tag}-A`,
      title: `${tag} Alpha anchor`,
      price: "10.00",
      category: { name: `${tag} Test category`, parent: null },
      maker: null,
    });
    expect(rows[1].maker).toEqual({ name: `${tag} Brand` });
    expect(rows[2].price).toBe("30.25"); // numeric stays a decimal string
    // A product's usual location (issue 21) embeds like any reference.
    const located = await db
      .from("product")
      .select("sku, usual_location(name)")
      .like("sku", `${tag}-*`)
      .order("sku")
      .limit(1);
    expect(located.error).toBeNull();
    expect((located.data as unknown as Row[])[0]).toEqual({ sku: `${tag}-A`, usual_location: null });
  });

  it("embeds to-many relations with their own filter, order and limit", async () => {
    const db = await rest(ADMIN);
    const { data, error } = await db
      .from("category")
      .select("name, products(sku, price)")
      .eq("id", categoryId)
      .order("price", { referencedTable: "products", ascending: false })
      .limit(1, { referencedTable: "products" })
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ name: `${tag} Test category`, products: [{ sku: `${tag}-B`, price: "20.50" }] });
  });

  it("!inner embeds filter the parent rows", async () => {
    const db = await rest(ADMIN);
    const { data, error } = await db
      .from("product")
      .select("sku, brand!inner(name)")
      .like("sku", `${tag}-*`)
      .eq("brand.name", `${tag} Brand`);
    expect(error).toBeNull();
    expect(skus(data)).toBe("BD");
    const left = await db.from("product").select("sku, brand(name)").like("sku", `${tag}-*`).eq("brand.name", "nope");
    expect(left.data).toHaveLength(4);
    expect((left.data as unknown as Row[]).every((r) => r.brand === null)).toBe(true);
  });

  it("answers unknown columns, relations and resources with PostgREST codes", async () => {
    const db = await rest(ADMIN);
    const col = await db.from("product").select("nope");
    expect(col.status).toBe(400);
    expect(col.error?.code).toBe("42703");
    const rel = await db.from("product").select("*, warehouse(name)");
    expect(rel.error?.code).toBe("PGRST200");
    const table = await db.from("auth_user").select("*");
    expect(table.status).toBe(404);
    expect(table.error?.code).toBe("PGRST205");
    const parse = await restFetch(ADMIN, "product?select=*,category(name");
    expect(parse.status).toBe(400);
    expect((parse.body as Row).code).toBe("PGRST100");
  });
});

describe("filters", () => {
  it.each([
    ["eq", `price=eq.20.5`, "B"],
    ["neq", `price=neq.10`, "BCD"],
    ["gt", `price=gt.20.5`, "CD"],
    ["gte", `price=gte.20.5`, "BCD"],
    ["lt", `price=lt.20.5`, "A"],
    ["lte", `price=lte.20.5`, "AB"],
    ["like", `name=like.*bolt`, "B"],
    ["ilike", `name=ilike.*CHARLIE*`, "C"],
    ["is null", `description=is.null`, "AD"],
    ["is true", `active=is.true`, "ABD"],
    ["in", `sku=in.(${tag}-A,"${tag}-C")`, "AC"],
    ["cs", `image_urls=cs.{b.png}`, "AB"],
    ["cd", `image_urls=cd.{a.png,b.png}`, "ABCD"],
    ["not.eq", `price=not.eq.10`, "BCD"],
    ["not.in", `sku=not.in.(${tag}-A,${tag}-B)`, "CD"],
    ["not.is", `brand_id=not.is.null`, "BD"],
    ["eq(any)", `price=eq(any).{10,99.99}`, "AD"],
    ["like(any)", `name=like(any).{*anchor,*drill}`, "AD"],
    ["ilike(all)", `name=ilike(all).{*ALPHA*,*anchor}`, "A"],
    ["gt(all)", `price=gt(all).{15,20}`, "BCD"],
    ["or", `or=(price.lt.15,name.ilike.*drill*)`, "AD"],
    ["nested or/and", `or=(and(price.gt.15,active.is.false),sku.eq.${tag}-A)`, "AC"],
    ["not.or", `not.or=(price.lt.15,price.gt.50)`, "BC"],
    ["and with not", `and=(price.gt.5,not.and(active.is.true,price.gt.15))`, "AC"],
    ["quoted value in or", `or=(description.eq."zinc",description.eq."a,b")`, "B"],
  ])("%s", async (_name, filter, expected) => {
    const res = await restFetch(ADMIN, `product?select=sku&sku=like.${tag}-*&${filter}`);
    expect(res.status, res.text).toBe(200);
    expect(skus(res.body)).toBe(expected);
  });

  it("postgrest-js builders produce the same filters", async () => {
    const db = await rest(ADMIN);
    const base = () => db.from("product").select("sku").like("sku", `${tag}-*`);
    expect(skus((await base().gte("price", 20).lt("price", 50)).data)).toBe("BC");
    expect(skus((await base().in("sku", [`${tag}-A`, `${tag}-D`])).data)).toBe("AD");
    expect(skus((await base().contains("image_urls", ["a.png"])).data)).toBe("A");
    expect(skus((await base().containedBy("image_urls", ["b.png"])).data)).toBe("BCD");
    expect(skus((await base().not("description", "is", null)).data)).toBe("BC");
    expect(skus((await base().or(`price.eq.99.99,and(price.gt.20,price.lt.21)`)).data)).toBe("BD");
    expect(skus((await base().likeAnyOf("name", ["*anchor", "*cable"])).data)).toBe("AC");
    expect(skus((await base().ilike("name", "%BRAVO%")).data)).toBe("B");
  });

  it("refuses bad filter values with 400, never 500", async () => {
    for (const q of [
      "price=eq.cheap",
      "id=eq.1e999",
      "active=is.maybe",
      "price=between.1",
      "created_at=gt.not-a-date",
    ]) {
      const res = await restFetch(ADMIN, `product?${q}`);
      expect(res.status, q).toBe(400);
      expect(Object.keys(res.body as Row).sort()).toEqual(["code", "details", "hint", "message"]);
    }
  });
});

describe("order, range and count", () => {
  it("orders with nulls first or last", async () => {
    const db = await rest(ADMIN);
    const first = await db
      .from("product")
      .select("sku")
      .like("sku", `${tag}-*`)
      .order("description", { nullsFirst: true })
      .order("sku");
    expect((first.data as unknown as Row[]).map((r) => String(r.sku).slice(-1)).join("")).toBe("ADCB");
    const last = await db
      .from("product")
      .select("sku")
      .like("sku", `${tag}-*`)
      .order("description", { ascending: false, nullsFirst: false })
      .order("sku");
    expect((last.data as unknown as Row[]).map((r) => String(r.sku).slice(-1)).join("")).toBe("BCAD");
  });

  it("pages with range and counts exactly into Content-Range", async () => {
    const db = await rest(ADMIN);
    const { data, count, error } = await db
      .from("product")
      .select("sku", { count: "exact" })
      .like("sku", `${tag}-*`)
      .order("sku")
      .range(1, 2);
    expect(error).toBeNull();
    expect(count).toBe(4);
    expect(skus(data)).toBe("BC");
    const raw = await restFetch(ADMIN, `product?select=sku&sku=like.${tag}-*&order=sku&offset=1&limit=2`, {
      headers: { prefer: "count=exact" },
    });
    expect(raw.headers.get("content-range")).toBe("1-2/4");
    const header = await restFetch(ADMIN, `product?select=sku&sku=like.${tag}-*&order=sku`, {
      headers: { range: "0-0" },
    });
    expect(header.headers.get("content-range")).toBe("0-0/*");
    expect(header.body).toHaveLength(1);
    const head = await db.from("product").select("*", { count: "exact", head: true }).like("sku", `${tag}-*`);
    expect(head.count).toBe(4);
    const planned = await db.from("product").select("sku", { count: "planned" }).like("sku", `${tag}-*`);
    expect(typeof planned.count).toBe("number");
    const estimated = await db.from("product").select("sku", { count: "estimated" }).like("sku", `${tag}-*`);
    expect(estimated.count).toBe(4);
  });

  it("pages past the first keep the order, the embeds and the exact count", async () => {
    const db = await rest(ADMIN);
    const page = (from: number, to: number) =>
      db
        .from("product")
        .select("sku, description, category:category(name), maker:brand(name)", { count: "exact" })
        .like("sku", `${tag}-*`)
        .order("description", { ascending: false, nullsFirst: true })
        .order("sku", { ascending: false })
        .range(from, to);
    const all = await page(0, 3);
    expect(all.error).toBeNull();
    const order = (rows: unknown) => (rows as Row[]).map((r) => String(r.sku).slice(-1)).join("");
    expect(order(all.data)).toBe("DABC");
    for (const [from, to] of [
      [1, 2],
      [2, 3],
      [3, 3],
    ]) {
      const part = await page(from, to);
      expect(part.error).toBeNull();
      expect(part.count).toBe(4);
      expect(part.data).toEqual((all.data as Row[]).slice(from, to + 1));
    }
    expect((all.data as Row[])[1]).toMatchObject({ category: { name: `${tag} Test category` }, maker: null });
    const beyond = await page(4, 5);
    expect(beyond.data).toEqual([]);
    expect(beyond.count).toBe(4);
  });

  it.each(["owner@demo.test", "platform@workmetrics.test"])(
    "a later page of every resource %s reads is the same slice of its list",
    async (email) => {
      let compared = 0;
      for (const def of RESOURCES) {
        const first = await restFetch(email, `${def.name}?limit=4`, { headers: { prefer: "count=exact" } });
        if (first.status === 403 || first.status === 405) continue;
        expect(first.status, `${def.name}: ${first.text}`).toBe(200);
        const later = await restFetch(email, `${def.name}?offset=1&limit=2`, { headers: { prefer: "count=exact" } });
        expect(later.status, `${def.name}: ${later.text}`).toBe(200);
        expect(later.body, def.name).toEqual((first.body as Row[]).slice(1, 3));
        expect(later.headers.get("content-range")?.split("/")[1], def.name).toBe(
          first.headers.get("content-range")?.split("/")[1],
        );
        compared++;
      }
      expect(compared).toBeGreaterThan(5);
    },
  );

  it("single and maybeSingle", async () => {
    const db = await rest(ADMIN);
    const one = await db.from("product").select("sku").eq("sku", `${tag}-A`).single();
    expect(one.data).toEqual({ sku: `${tag}-A` });
    const many = await db.from("product").select("sku").like("sku", `${tag}-*`).single();
    expect(many.status).toBe(406);
    expect(many.error?.code).toBe("PGRST116");
    const none = await db.from("product").select("sku").eq("sku", "none").maybeSingle();
    expect(none.error).toBeNull();
    expect(none.data).toBeNull();
  });
});

describe("related order", () => {
  // Five products over two categories of their own (and one without), so other tests' counts stay as they are.
  const R = `${tag}R`;
  let mallets = 0;
  let xylophones = 0;
  const order = (rows: unknown) => (rows as Row[]).map((r) => String(r.sku).slice(-1)).join("");

  beforeAll(async () => {
    const db = await rest(ADMIN);
    const cats = await db
      .from("category")
      .insert([{ name: `${R} Xylophones` }, { name: `${R} Mallets` }])
      .select("id, name");
    expect(cats.error).toBeNull();
    const byName = new Map((cats.data as { id: number; name: string }[]).map((c) => [c.name, c.id]));
    xylophones = byName.get(`${R} Xylophones`) as number;
    mallets = byName.get(`${R} Mallets`) as number;
    const { error } = await db.from("product").insert([
      { sku: `${R}-1`, name: `${R} p1`, category_id: xylophones, brand_id: brandId },
      { sku: `${R}-2`, name: `${R} p2`, category_id: mallets },
      { sku: `${R}-3`, name: `${R} p3` },
      { sku: `${R}-4`, name: `${R} p4`, category_id: xylophones },
      { sku: `${R}-5`, name: `${R} p5`, category_id: mallets },
    ]);
    expect(error).toBeNull();
  });

  it.each([
    ["asc", { ascending: true }, "25143"],
    ["asc nulls first", { ascending: true, nullsFirst: true }, "32514"],
    ["desc (nulls first, as Postgres)", { ascending: false }, "31425"],
    ["desc nulls last", { ascending: false, nullsFirst: false }, "14253"],
  ])("orders the top level by a to-one embed's column, %s, then by a column of its own", async (_n, opts, expected) => {
    const db = await rest(ADMIN);
    for (const [select, by] of [
      ["sku, category(name)", "category(name)"], // the relation's name
      ["sku, cat:category(name)", "cat(name)"], // the alias
      ["sku, cat:category(name)", "category(name)"], // the relation's name behind an alias, as PostgREST allows
    ]) {
      const { data, error } = await db
        .from("product")
        .select(select)
        .like("sku", `${R}-*`)
        .order(by, opts)
        .order("sku");
      expect(error, `${select} ${by}`).toBeNull();
      expect(order(data), `${select} ${by}`).toBe(expected);
    }
  });

  it("orders by an embedded column the select does not show, and by several embeds", async () => {
    const res = await restFetch(
      ADMIN,
      `product?select=sku,category(id),maker:brand(name)&sku=like.${R}-*&order=category(name).desc.nullslast,maker(name).asc.nullslast,sku.desc`,
    );
    expect(res.status, res.text).toBe(200);
    expect(order(res.body)).toBe("14523");
    expect((res.body as Row[])[0]).toEqual({
      sku: `${R}-1`,
      category: { id: xylophones },
      maker: { name: `${tag} Brand` },
    });
  });

  it("pages past the first in the same related order (the key walk orders by it too)", async () => {
    const db = await rest(ADMIN);
    const page = (from: number, to: number) =>
      db
        .from("product")
        .select("sku, category:category(name)", { count: "exact" })
        .like("sku", `${R}-*`)
        .order("category(name)", { ascending: false, nullsFirst: false })
        .order("name", { ascending: false })
        .range(from, to);
    const all = await page(0, 4);
    expect(all.error).toBeNull();
    expect(order(all.data)).toBe("41523");
    for (const [from, to] of [
      [1, 2],
      [2, 4],
      [4, 4],
    ]) {
      const part = await page(from, to);
      expect(part.error).toBeNull();
      expect(part.count).toBe(5);
      expect(part.data).toEqual((all.data as Row[]).slice(from, to + 1));
    }
    const raw = await restFetch(
      ADMIN,
      `product?select=sku,category(name)&sku=like.${R}-*&order=category(name).nullsfirst,sku&offset=2&limit=2`,
    );
    expect(order(raw.body)).toBe("51");
  });

  it("orders inside a to-many embed by that embed's to-one embeds", async () => {
    const db = await rest(ADMIN);
    const { data, error } = await db
      .from("category")
      .select("name, products(sku, brand(name))")
      .eq("id", xylophones)
      .order("brand(name)", { referencedTable: "products", ascending: false, nullsFirst: true })
      .single();
    expect(error).toBeNull();
    expect(order((data as unknown as { products: Row[] }).products)).toBe("41");
  });

  it("orders every resource's list by each reference's label, as the generic list asks", async () => {
    let ordered = 0;
    for (const def of RESOURCES) {
      for (const f of def.fields) {
        const rel = Object.entries(def.relations).find(
          ([, r]) => r.kind === "one" && r.column === f.name && r.resource === f.reference?.resource,
        );
        if (!rel || !f.reference) continue;
        const [embed] = rel;
        const q = `select=*,${embed}:${embed}(id,${f.reference.display})&order=${embed}(${f.reference.display}).desc&limit=3`;
        const res = await restFetch("owner@demo.test", `${def.name}?${q}`, { headers: { prefer: "count=exact" } });
        if (res.status === 403 || res.status === 405) continue;
        expect(res.status, `${def.name}?${q}: ${res.text}`).toBe(200);
        ordered++;
      }
    }
    expect(ordered).toBeGreaterThan(3);
  });

  it("refuses a to-many embed (PGRST118), an embed the select lacks (PGRST108) and unknown columns", async () => {
    const toMany = await restFetch(ADMIN, "category?select=name,items:products(sku)&order=items(sku)");
    expect(toMany.status).toBe(400);
    expect(toMany.body).toEqual({
      code: "PGRST118",
      message: "A related order on 'items' is not possible",
      details: "'category' and 'items' do not form a many-to-one or one-to-one relationship",
      hint: null,
    });
    const byName = await restFetch(ADMIN, "category?select=name,products(sku)&order=products(sku).desc");
    expect((byName.body as Row).code).toBe("PGRST118");
    const missing = await restFetch(ADMIN, "product?select=sku&order=category(name)");
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      code: "PGRST108",
      message: "'category' is not an embedded resource in this request",
      details: null,
      hint: "Verify that 'category' is included in the 'select' query parameter.",
    });
    const unknown = await restFetch(ADMIN, "product?select=sku,warehouse(name)&order=warehouse(name)");
    expect((unknown.body as Row).code).toBe("PGRST200");
    const column = await restFetch(ADMIN, "product?select=sku,category(name)&order=category(nope)");
    expect(column.status).toBe(400);
    expect((column.body as Row).code).toBe("42703");
    for (const bad of [
      "category()",
      "category(name",
      "category(a,b)",
      "category(parent(name))",
      "(name)",
      "category(name)desc",
    ]) {
      const res = await restFetch(ADMIN, `product?select=sku,category(name)&order=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect((res.body as Row).code, bad).toBe("PGRST100");
    }
  });

  it("lets a reader of a list read and order by its references' labels, and nothing more of them", async () => {
    const driver = "driver@demo.test";
    // Issue 9: the driver reads products but not categories; a product's category name is still shown.
    const embed = await restFetch(driver, "product?select=id,category(id,name)&category_id=not.is.null&limit=1");
    expect(embed.status).toBe(200);
    expect((embed.body as Array<{ category: { name: string } }>)[0].category.name).toEqual(expect.any(String));
    const ordered = await restFetch(driver, "product?select=id,category(name)&order=category(name)&limit=1");
    expect(ordered.status).toBe(200);
    // Anything beyond the id and label is refused, embedded or ordered by, the same way.
    const whole = await restFetch(driver, "product?select=id,category(*)&limit=1");
    const orderedWhole = await restFetch(driver, "product?select=id,category(*)&order=category(name)&limit=1");
    expect(whole.status).toBe(403);
    expect(orderedWhole.status).toBe(403);
    expect(orderedWhole.body).toEqual(whole.body);
    expect(await restFetch(driver, "category?select=id,name&limit=1")).toMatchObject({ status: 403 });
  });

  it("orders each workspace by its own related rows only", async () => {
    const pro = await rest("admin@pro.test");
    // A name that would sort first anywhere, in another workspace.
    const cat = await pro
      .from("category")
      .insert({ name: `${R} Aardvarks` })
      .select("id")
      .single();
    expect(cat.error).toBeNull();
    const proId = (cat.data as { id: number }).id;
    const made = await pro.from("product").insert({ sku: `${R}-9`, name: `${R} p9`, category_id: proId });
    expect(made.error).toBeNull();
    const demo = await rest(ADMIN);
    const mine = await demo
      .from("product")
      .select("sku, category(name)")
      .like("sku", `${R}-*`)
      .order("category(name)", { nullsFirst: true })
      .order("sku");
    expect(order(mine.data)).toBe("32514");
    expect(JSON.stringify(mine.data)).not.toContain("Aardvarks");
    // Pointing at the other workspace's category finds nothing to order (or embed) by.
    const probe = await restFetch(
      ADMIN,
      `product?select=sku,category(name)&category_id=eq.${proId}&order=category(name)`,
    );
    expect(probe.body).toEqual([]);
    const theirs = await pro
      .from("product")
      .select("sku, category(name)")
      .like("sku", `${R}-*`)
      .order("category(name)")
      .order("sku");
    expect(theirs.data).toEqual([{ sku: `${R}-9`, category: { name: `${R} Aardvarks` } }]);
  });
});

describe("writes", () => {
  it("inserts, upserts, updates and deletes with return=representation", async () => {
    const db = await rest(ADMIN);
    const ins = await db
      .from("product")
      .insert({ sku: `${tag}-W`, name: "Write test", price: "1.10", category_id: categoryId })
      .select("id, sku, price, category(name)")
      .single();
    expect(ins.status).toBe(201);
    expect(ins.data).toMatchObject({ sku: `${tag}-W`, price: "1.10", category: { name: `${tag} Test category` } });
    const id = (ins.data as { id: number }).id;

    const up = await db
      .from("product")
      .upsert(
        [
          { sku: `${tag}-W`, name: "Write test v2", price: 2 },
          { sku: `${tag}-X`, name: "Upserted" },
        ],
        {
          onConflict: "sku",
        },
      )
      .select("id, sku, name, price")
      .order("sku");
    expect(up.error).toBeNull();
    expect(up.data).toEqual([
      { id, sku: `${tag}-W`, name: "Write test v2", price: "2.00" },
      expect.objectContaining({ sku: `${tag}-X`, name: "Upserted", price: "0.00" }),
    ]);
    const ignored = await db
      .from("product")
      .upsert({ sku: `${tag}-X`, name: "Ignored" }, { onConflict: "sku", ignoreDuplicates: true })
      .select();
    expect(ignored.data).toEqual([]);

    const upd = await db
      .from("product")
      .update({ price: "3.30", active: false })
      .eq("id", id)
      .select("price, active")
      .single();
    expect(upd.data).toEqual({ price: "3.30", active: false });
    const minimal = await db.from("product").update({ unit: "box" }).eq("id", id);
    expect(minimal.status).toBe(204);

    const del = await db
      .from("product")
      .delete()
      .in("sku", [`${tag}-W`, `${tag}-X`])
      .select("sku")
      .order("sku");
    expect(del.data).toEqual([{ sku: `${tag}-W` }, { sku: `${tag}-X` }]);
    const gone = await db.from("product").select("id").eq("id", id);
    expect(gone.data).toEqual([]);
  });

  it("refuses bulk changes without a filter, bad bodies and server columns", async () => {
    const db = await rest(ADMIN);
    const patch = await db.from("product").update({ name: "everything" });
    expect(patch.status).toBe(400);
    expect(patch.error?.code).toBe("21000");
    const del = await db.from("product").delete();
    expect(del.error?.code).toBe("21000");
    const invalid = await db.from("product").insert({ sku: `${tag}-V`, name: "", price: "abc" });
    expect(invalid.status).toBe(422);
    expect(invalid.error?.code).toBe("validation_failed");
    const fields = JSON.parse(JSON.stringify(invalid.error?.details)) as Array<{ field: string }>;
    expect(fields.map((f) => f.field).sort()).toEqual(["name", "price"]);
    const unknown = await db.from("product").insert({ sku: `${tag}-V`, name: "x", colour: "red" });
    expect(unknown.error?.code).toBe("PGRST204");
    const forged = await db.from("product").insert({ sku: `${tag}-V`, name: "x", id: 1 });
    expect(forged.status).toBe(403);
    const stamp = await db.from("product").update({ created_at: "2020-01-01" }).eq("sku", `${tag}-A`);
    expect(stamp.status).toBe(403);
  });

  it("maps unique and foreign-key violations to 409 naming the column", async () => {
    const db = await rest(ADMIN);
    const dup = await db.from("product").insert({ sku: `${tag}-A`, name: "dup" });
    expect(dup.status).toBe(409);
    expect(dup.error?.code).toBe("23505");
    expect(dup.error?.details).toContain("Key (sku)");
    const fk = await db.from("product").insert({ sku: `${tag}-F`, name: "fk", category_id: 987654321 });
    expect(fk.status).toBe(409);
    expect(fk.error?.code).toBe("23503");
    const used = await db.from("category").delete().eq("id", categoryId);
    expect(used.status).toBe(409);
    expect(used.error?.code).toBe("23503");
    expect(used.error?.message).toBe("This record is still used by products: change or delete those first");
  });

  it("keeps categories free of cycles and the default company", async () => {
    const db = await rest(ADMIN);
    const child = await db
      .from("category")
      .insert({ name: `${tag} Child`, parent_id: categoryId })
      .select("id")
      .single();
    const childId = (child.data as { id: number }).id;
    const cycle = await db.from("category").update({ parent_id: childId }).eq("id", categoryId);
    expect(cycle.status).toBe(400);
    expect(cycle.error?.code).toBe("23514");
    expect(cycle.error?.message).toMatch(/inside itself/);
    const self = await db.from("category").update({ parent_id: childId }).eq("id", childId);
    expect(self.status).toBe(400);
    const keep = await db.from("company").delete().eq("id", 9);
    expect(keep.status).toBe(409);
    expect((await db.from("company").select("id").eq("id", 9)).data).toEqual([{ id: 9 }]);
  });
});

describe("rpc", () => {
  it("csv_import is all-or-nothing unless skip_bad_rows, with a row-by-row report", async () => {
    const db = await rest(ADMIN);
    const rows = [
      { SKU: `${tag}-I1`, Name: "Imported one", Category: `${tag} Test category`, Price: "12.50", Active: "yes" },
      { SKU: `${tag}-I2`, Name: "", Price: "3" },
      { sku: `${tag}-I3`, name: "Imported three", category_id: "No such category" },
      { sku: `${tag}-A`, name: "Duplicate of A" },
      { sku: `${tag}-I5`, name: "Imported five", price: "1,234.00", image_urls: "x.png;y.png" },
    ];
    const strict = await db.rpc("csv_import", { resource: "product", rows });
    expect(strict.error).toBeNull();
    expect(strict.data).toMatchObject({ committed: false, imported: 0, skipped: 3, total: 5 });
    const errors = (strict.data as { errors: Array<{ row: number; field: string | null }> }).errors;
    expect(errors.map((e) => [e.row, e.field])).toEqual([
      [2, "name"],
      [3, "category_id"],
      [4, "sku"],
    ]);
    expect((await db.from("product").select("sku").eq("sku", `${tag}-I1`)).data).toEqual([]);

    const lenient = await db.rpc("csv_import", { resource: "product", rows, skip_bad_rows: true });
    expect(lenient.data).toMatchObject({ committed: true, imported: 2, skipped: 3 });
    const imported = await db
      .from("product")
      .select("sku, price, active, image_urls, category(name)")
      .in("sku", [`${tag}-I1`, `${tag}-I5`])
      .order("sku");
    expect(imported.data).toEqual([
      { sku: `${tag}-I1`, price: "12.50", active: true, image_urls: [], category: { name: `${tag} Test category` } },
      { sku: `${tag}-I5`, price: "1234.00", active: true, image_urls: ["x.png", "y.png"], category: null },
    ]);
    const upsert = await db.rpc("csv_import", {
      resource: "product",
      rows: [{ sku: `${tag}-I1`, price: "13" }],
      upsert: true,
    });
    expect(upsert.data).toMatchObject({ committed: true, imported: 1 });
    expect((await db.from("product").select("price").eq("sku", `${tag}-I1`).single()).data).toEqual({ price: "13.00" });
  });

  describe("csv_import of 1,000 rows", () => {
    // SKUs of their own (not `${tag}-…`), so the other tests' counts stay as they are; removed afterwards.
    const K = `${tag}K`;
    const file = (prefix: string, bad: number | null) =>
      Array.from({ length: 1000 }, (_, i) => ({
        sku: `${prefix}-${i + 1}`,
        name: i + 1 === bad ? "" : `Bulk ${i + 1}`,
        category_id: i % 2 ? `${tag} Test category` : "",
        price: String(i % 50),
        active: i % 3 ? "yes" : "no",
      }));
    const count = async (prefix: string) => {
      const db = await rest(ADMIN);
      const res = await db.from("product").select("sku", { count: "exact", head: true }).like("sku", `${prefix}-*`);
      return res.count;
    };
    type Report = { committed: boolean; imported: number; skipped: number; errors: Row[] };

    afterAll(async () => {
      const db = await rest(ADMIN);
      await db.from("product").delete().like("sku", `${K}*`);
    });

    it("imports a 1,000-row file in one go", async () => {
      const db = await rest(ADMIN);
      const res = await db.rpc("csv_import", { resource: "product", rows: file(`${K}G`, null) });
      expect(res.error).toBeNull();
      expect(res.data).toMatchObject({ committed: true, imported: 1000, skipped: 0, total: 1000, errors: [] });
      expect(await count(`${K}G`)).toBe(1000);
      const some = await db
        .from("product")
        .select("sku, price, active, category(name)")
        .in("sku", [`${K}G-1`, `${K}G-2`])
        .order("sku");
      expect(some.data).toEqual([
        { sku: `${K}G-1`, price: "0.00", active: false, category: null },
        { sku: `${K}G-2`, price: "1.00", active: true, category: { name: `${tag} Test category` } },
      ]);
    });

    it("imports nothing of a 1,000-row file with one bad row, or the 999 good ones with skip_bad_rows", async () => {
      const db = await rest(ADMIN);
      const rows = file(`${K}B`, 700);
      const strict = await db.rpc("csv_import", { resource: "product", rows });
      expect(strict.data).toMatchObject({ committed: false, imported: 0, skipped: 1, total: 1000 });
      expect((strict.data as Report).errors).toEqual([{ row: 700, field: "name", message: "Name is required" }]);
      expect(await count(`${K}B`)).toBe(0);
      const lenient = await db.rpc("csv_import", { resource: "product", rows, skip_bad_rows: true });
      expect(lenient.data).toMatchObject({ committed: true, imported: 999, skipped: 1 });
      expect((lenient.data as Report).errors).toEqual([{ row: 700, field: "name", message: "Name is required" }]);
      expect(await count(`${K}B`)).toBe(999);
      expect((await db.from("product").select("sku").eq("sku", `${K}B-700`)).data).toEqual([]);
    });

    it("reports a SKU repeated in the file or already used, and a row the database refuses, row by row", async () => {
      const db = await rest(ADMIN);
      const rows = file(`${K}D`, null);
      rows[9].sku = `${K}D-3`; // row 10 repeats row 3
      rows[19].sku = `${tag}-A`; // row 20: an existing product
      rows[39].sku = `${tag}-A`; // row 40 repeats row 20, itself refused
      rows[599].category_id = "987654321"; // row 600: no such category id (the database's foreign key)
      rows[600].sku = `${K}D-600`; // row 601 repeats row 600, which the database refuses: row 601 goes in
      rows[999].sku = `${K}D-3`; // row 1000 repeats row 3 too
      const used = (row: number) => ({ row, field: "sku", message: "sku is already used by another record" });
      const expected = [
        used(10),
        used(20),
        used(40),
        { row: 600, field: null, message: "The referenced record does not exist (category_id)" },
        used(1000),
      ];
      const strict = await db.rpc("csv_import", { resource: "product", rows });
      expect(strict.data).toMatchObject({ committed: false, imported: 0, skipped: 5 });
      expect((strict.data as Report).errors).toEqual(expected);
      expect(await count(`${K}D`)).toBe(0);
      const lenient = await db.rpc("csv_import", { resource: "product", rows, skip_bad_rows: true });
      expect(lenient.data).toMatchObject({ committed: true, imported: 995, skipped: 5 });
      expect((lenient.data as Report).errors).toEqual(expected);
      expect(await count(`${K}D`)).toBe(995);
      const kept = await db
        .from("product")
        .select("sku, name")
        .in("sku", [`${K}D-3`, `${K}D-600`, `${tag}-A`]);
      expect(new Map((kept.data as Row[]).map((r) => [r.sku, r.name]))).toEqual(
        new Map([
          [`${K}D-3`, "Bulk 3"],
          [`${K}D-600`, "Bulk 601"],
          [`${tag}-A`, `${tag} Alpha anchor`],
        ]),
      );
      // The same file again: every row's SKU is taken now, found with one query.
      const again = await db.rpc("csv_import", { resource: "product", rows, skip_bad_rows: true });
      expect(again.data).toMatchObject({ committed: true, imported: 0, skipped: 1000 });
    });

    it("upserts a 1,000-row file: known SKUs are updated (the last of a repeated one wins), new ones inserted", async () => {
      const db = await rest(ADMIN);
      const rows = file(`${K}U`, null)
        .slice(0, 500)
        .map((r) => ({ sku: r.sku, price: "5" }));
      expect(
        (await db.rpc("csv_import", { resource: "product", rows: file(`${K}U`, null).slice(0, 500) })).data,
      ).toMatchObject({ imported: 500 });
      const more = file(`${K}U`, null).slice(500);
      const upsert = [...rows, ...more, { sku: `${K}U-1`, price: "7" }, { sku: `${K}U-600`, name: "Renamed" }];
      const res = await db.rpc("csv_import", { resource: "product", rows: upsert, upsert: true });
      expect(res.data).toMatchObject({ committed: true, imported: 1002, skipped: 0, errors: [] });
      expect(await count(`${K}U`)).toBe(1000);
      const some = await db
        .from("product")
        .select("sku, name, price")
        .in("sku", [`${K}U-1`, `${K}U-2`, `${K}U-600`])
        .order("price");
      expect(some.data).toEqual([
        { sku: `${K}U-2`, name: "Bulk 2", price: "5.00" },
        { sku: `${K}U-1`, name: "Bulk 1", price: "7.00" },
        { sku: `${K}U-600`, name: "Renamed", price: "49.00" },
      ]);
    });
  });

  it("dashboard_summary counts what the workspace has and its latest changes", async () => {
    const db = await rest(ADMIN);
    const { data, error } = await db.rpc("dashboard_summary", {});
    expect(error).toBeNull();
    const summary = data as { counts: Record<string, number>; recent: Row[]; charts: Record<string, Row[]> };
    expect(summary.counts.product).toBeGreaterThan(300);
    expect(summary.counts.company).toBeGreaterThanOrEqual(7);
    expect(summary.recent.length).toBeGreaterThan(0);
    expect(summary.recent.length).toBeLessThanOrEqual(10);
    expect(summary.charts.products_by_category.length).toBeGreaterThan(0);
  });

  it("memo_inbox shows memos for the reader's role and memo_mark_read records a receipt", async () => {
    const sales = await rest("sales@demo.test");
    const driver = await rest("driver@demo.test");
    const forSales = (await sales.rpc("memo_inbox", {})).data as Row[];
    const forDriver = (await driver.rpc("memo_inbox", {})).data as Row[];
    expect(forSales.map((m) => m.title)).toContain("New price list from 1 February");
    expect(forDriver.map((m) => m.title)).not.toContain("New price list from 1 February");
    expect(forSales.map((m) => m.title)).not.toContain("Draft: quarterly sales targets");
    const first = forSales[0];
    const read = await sales.rpc("memo_mark_read", { memo_id: first.id });
    expect(read.error).toBeNull();
    const again = (await sales.rpc("memo_inbox", {})).data as Row[];
    expect(again.find((m) => m.id === first.id)?.read).toBe(true);
    const unknown = await sales.rpc("no_such_fn", {});
    expect(unknown.status).toBe(404);
    const bad = await sales.rpc("memo_mark_read", { memo_id: "x" });
    expect(bad.status).toBe(422);
  });
});

describe("permissions and tiers", () => {
  it("checks <resource>.<action> on every request", async () => {
    const driver = await rest("driver@demo.test");
    expect((await driver.from("product").select("id").limit(1)).status).toBe(200);
    const create = await driver.from("product").insert({ sku: `${tag}-P`, name: "nope" });
    expect(create.status).toBe(403);
    expect(create.error?.code).toBe("42501");
    expect(create.error?.message).toMatch(/permission to create products/);
    const embed = await driver.from("product").select("id, category(name, created_at)").limit(1);
    expect(embed.status).toBe(403);
    expect(embed.error?.message).toBe("You do not have permission to read categories");
    const sales = await rest("sales@demo.test");
    const del = await sales.from("product").delete().eq("sku", `${tag}-A`);
    expect(del.status).toBe(403);
    // A user reads their own feedback without feedback.read.
    const fb = await driver
      .from("feedback")
      .insert({ category: "idea", message: "Night deliveries" })
      .select("user_id")
      .single();
    expect(fb.status).toBe(201);
    // Marking feedback handled is for whoever may change it, not the sender.
    const selfHandled = await driver
      .from("feedback")
      .insert({ category: "idea", message: "Already done", handled_at: new Date().toISOString() });
    expect(selfHandled.status).toBe(403);
    expect(selfHandled.error?.message).toBe("handled_at cannot be written");
    const mine = await driver.from("feedback").select("message");
    expect((mine.data as unknown as Row[]).map((r) => r.message)).toEqual(["Night deliveries"]);
  });

  it("refuses tier-gated resources naming the cheapest tier that has them", async () => {
    const lite = await rest("admin@lite.test");
    const res = await lite.from("project").select("*");
    expect(res.status).toBe(403);
    expect(res.error?.code).toBe("tier_required");
    expect(res.error?.message).toContain("Pro");
    expect((await lite.from("product").select("id").limit(1)).status).toBe(200);
    expect((await lite.from("workspace_role").select("title").limit(1)).status).toBe(200);
    const role = await lite.from("workspace_role").insert({ title: "Custom", slug: "custom", base_role_id: 3 });
    expect(role.error?.code).toBe("tier_required");
  });

  it("lets anon read only public rows and platform tables only operators write", async () => {
    const anon = await rest();
    expect((await anon.from("tier").select("id")).data).toHaveLength(3);
    expect((await anon.from("product").select("id")).status).toBe(401);
    const cs = await anon.from("case_study").select("published");
    expect((cs.data as unknown as Row[]).every((r) => r.published === true)).toBe(true);
    const admin = await rest(ADMIN);
    expect((await admin.from("coupon").select("id")).status).toBe(403);
    expect((await admin.from("tier").update({ title: "Cheap" }).eq("id", 10)).status).toBe(403);
    const op = await rest("platform@workmetrics.test");
    const coupon = await op
      .from("coupon")
      .insert({ code: `${tag}OFF`, kind: "percent", value: 15 })
      .select("code, value")
      .single();
    expect(coupon.data).toEqual({ code: `${tag}OFF`, value: "15.00" });
    const ws = await op.from("workspace").select("slug").order("slug");
    expect((ws.data as unknown as Row[]).map((w) => w.slug)).toEqual(expect.arrayContaining(["demo", "lite", "pro"]));
    // A workspace admin reads and renames only its own workspace.
    const own = await admin.from("workspace").select("slug");
    expect(own.data).toEqual([{ slug: "demo" }]);
    const tier = await admin.from("workspace").update({ tier_id: 10 }).eq("slug", "demo");
    expect(tier.status).toBe(403);
  });
});

describe("robustness", () => {
  it("random query strings never produce a 500 or leak SQL", async () => {
    const piece = fc.oneof(
      fc.constantFrom(
        "select",
        "order",
        "limit",
        "offset",
        "or",
        "and",
        "not.or",
        "sku",
        "price",
        "name",
        "category.name",
        "products.order",
        "id",
        "x",
      ),
      fc.string({ maxLength: 8 }),
    );
    const value = fc.oneof(
      fc.constantFrom(
        "eq.1",
        "in.(1,2",
        "is.null",
        "not.like.*a",
        "(a.eq.1,b",
        "*,category(name)",
        "name.desc.nullsfirst",
        "category(name).desc",
        "products(sku),name",
        "*,products(sku),parent(name)",
        "cs.{a}",
        "1;drop table product",
        "'",
        '"',
        "eq(any).{1,2}",
        "-1",
        "99999999999999999999",
      ),
      fc.string({ maxLength: 20 }),
    );
    const query = fc.array(fc.tuple(piece, value), { maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("product", "category", "company", "memo"), query, async (resource, pairs) => {
        const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
        const res = await restFetch(ADMIN, `${resource}?${qs}`);
        expect(res.status, `${resource}?${qs} → ${res.text}`).toBeLessThan(500);
        expect(res.text).not.toMatch(
          /json_build_object|json_agg|workmetrics_app|\bt0\.|\$\d+::|Failed query|set_config/i,
        );
      }),
      { numRuns: 150 },
    );
  });
});
