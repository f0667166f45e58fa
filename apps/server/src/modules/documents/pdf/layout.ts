// What a printed page shows, as plain data: the document models (document.ts, statement.ts) fill it, render.ts
// draws it. Nothing here knows a document type, so a new type prints without code of its own.

// The workspace printing the document (issue 10 §3: its logo, colours, name and address).
export type Letterhead = {
  name: string;
  lines: string[]; // address, UEN, GST registration number, contact details: each only when the workspace has it
  logo: Buffer | null; // PNG or JPEG (what PDF embeds); other formats print the name alone
  primary: string; // #rrggbb
  secondary: string;
};

export type Align = "left" | "right" | "center";

// A column of a table; `width` is a share of the table's width, `wrap` lets its text run over several lines.
export type Column = { label: string; width: number; align?: Align; wrap?: boolean };

// A cell's second line in a smaller grey type (a line's SKU under its description).
export type Cell = string | { text: string; note?: string };

export type TotalRow = { label: string; value: string; strong?: boolean };

export type Block =
  | { kind: "table"; heading?: string; columns: Column[]; rows: Cell[][]; empty?: string }
  | { kind: "totals"; rows: TotalRow[] }
  | { kind: "text"; heading: string; text: string }
  // values: filled in; `image`: a signature drawn on screen (PNG), printed above the box `imageAt`
  | {
      kind: "signature";
      heading?: string;
      fields: string[];
      values?: (string | null)[];
      image?: Buffer | null;
      imageAt?: number;
    };

export type Printable = {
  title: string; // "Tax Invoice", "Statement of Account"
  reference: string; // the number, or "Draft" before it has one: repeated on every page's running header
  status: string | null; // shown beside the title when the document is not in its final form
  watermark: string | null; // "DRAFT", "CANCELLED"
  party: { heading: string; name: string; lines: string[] };
  facts: Array<[string, string]>; // number, date, due date … beside the party
  body: Block[];
  filename: string;
};
