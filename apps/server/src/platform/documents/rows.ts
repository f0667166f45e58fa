import type { quotation } from "@workmetrics/domain/db/selling-schema";
import type { Table } from "drizzle-orm";
import type { Row } from "./store.ts";

// A document's row as the engine reads it (store.ts selectList), typed from its Drizzle table: keyed by the SQL
// column names, numbers and dates as text (drizzle's numeric and string-mode date are strings already), ids as
// numbers (int8 is parsed as a number on both engines), null where the column may be.
type Columns<T extends Table> = T["_"]["columns"];
type Snake<S extends string> = S extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}`
  : S;
// A column's SQL name: its literal name, or, where a helper typed it as any string (money("total")), its key in
// snake_case, which is how the schema names every column.
type NameOf<T extends Table, K extends keyof Columns<T>> = string extends Columns<T>[K]["_"]["name"]
  ? Snake<K & string>
  : Columns<T>[K]["_"]["name"];
export type RowOf<T extends Table> = {
  [K in keyof Columns<T> as NameOf<T, K>]: Columns<T>[K]["_"]["notNull"] extends true
    ? Columns<T>[K]["_"]["data"]
    : Columns<T>[K]["_"]["data"] | null;
};

// The engine hands effects untyped rows (every type alike); a type's effect reads its own through its table.
export const rowOf = <T extends Table>(_table: T, row: Row): RowOf<T> => row as RowOf<T>;
export const rowsOf = <T extends Table>(_table: T, rows: readonly Row[]): RowOf<T>[] => rows as RowOf<T>[];

// What every document header has (DESIGN §2.3.1), for the engine's shared effects that read any type's.
export type HeaderRow = Pick<RowOf<typeof quotation>, "id" | "number" | "status" | "doc_date" | "rate">;
export const headerOf = (row: Row): HeaderRow => row as HeaderRow;
