// What a document type's guards and status rules read: the header row and lines as the database holds them (wire
// names, decimal strings) and the day it is (the database's current_date, so every server agrees).
export type DocSnapshot = {
  status: string;
  today: string; // YYYY-MM-DD
  header: Readonly<Record<string, unknown>>;
  lines: readonly Readonly<Record<string, unknown>>[];
  // The workspace's document settings, for the rules that depend on them (a purchase order's approval threshold).
  settings?: Readonly<Record<string, unknown>>;
};

export const needsLines = (title: string, verb: string) => (doc: DocSnapshot) =>
  doc.lines.length > 0 ? null : `Add a line before ${verb} the ${title}`;
