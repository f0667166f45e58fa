import type { ComponentType, LazyExoticComponent } from "react";
import type { Row } from "../../platform/data-access/provider.ts";
import type { LineDraft } from "./lines.ts";

// What a module adds to the document pages of a type (issue 20 §5; as addEffect does on the server): the module
// registers a loader of its extensions at load (app/modules.ts), and the document pages wait for them before they
// render (useDocType), so the generic pages name no module and carry none of their code.

// A module's own button on a type's document page, beside the actions (a sales order's "Purchase what is short"):
// lazy, so the document page's code does not carry it; it decides itself whether to show.
export type PageAction = LazyExoticComponent<ComponentType<{ doc: Row; status: string }>>;

// A type whose lines are not qty × price (a progressive claim's cumulative percentages): its own lines and totals in
// place of the lines grid and the totals panel, editing the same form lines (LineDraft, its fields in `extra`).
export type LinesEditorProps = {
  doc: Row | null;
  header: Record<string, unknown>;
  lines: LineDraft[];
  onChange(lines: LineDraft[]): void;
  readOnly: boolean;
  currency: string;
  errors?: Record<string, string>;
};
export type LinesEditor = LazyExoticComponent<ComponentType<LinesEditorProps>>;

// A module's own section on a type's document page, below the lines (a delivery order's proof of delivery); it
// decides itself whether to show.
export type PagePanel = LazyExoticComponent<ComponentType<{ doc: Row }>>;

// A module's action on the rows selected in a type's list (delivery orders: "Assign driver and date"); `onDone`
// clears the selection.
export type ListAction = LazyExoticComponent<ComponentType<{ ids: number[]; onDone(): void }>>;

// A module's own button on a type's list, beside its filters (supplier invoices: "Scan an invoice"); it decides
// itself whether to show.
export type ListButton = LazyExoticComponent<ComponentType>;

export type DocumentExtension = {
  pageActions?: readonly PageAction[];
  listButton?: ListButton;
  panels?: readonly PagePanel[];
  listAction?: ListAction;
  editor?: LinesEditor;
  // Made only from another document (a claim from its contract): the list offers no New.
  convertOnly?: boolean;
  // Why the unsaved form could not be submitted as it stands (a claim's figures), or null: the page then answers for
  // Submit from the form, not from the saved draft.
  blocked?: (doc: Row | null, header: Readonly<Record<string, unknown>>, lines: readonly LineDraft[]) => string | null;
};

// A module's extensions, by document type.
export type DocumentExtensions = Readonly<Record<string, DocumentExtension>>;
type Loader = () => Promise<{ default: DocumentExtensions }>;

const loaders: Loader[] = [];
const merged = new Map<string, DocumentExtension>();
let loaded: Promise<void> | null = null;

export function registerDocumentExtensions(load: Loader): void {
  loaders.push(load);
  loaded = null;
}

// One promise for all of them, the same one every time (React's use() waits on it), until another registers.
export function documentExtensionsLoaded(): Promise<void> {
  loaded ??= Promise.all(loaders.map((load) => load())).then((modules) => {
    merged.clear();
    for (const { default: byType } of modules) {
      for (const [type, ext] of Object.entries(byType)) {
        const had = merged.get(type) ?? {};
        merged.set(type, {
          ...had,
          ...ext,
          pageActions: [...(had.pageActions ?? []), ...(ext.pageActions ?? [])],
          panels: [...(had.panels ?? []), ...(ext.panels ?? [])],
        });
      }
    }
  });
  return loaded;
}

const NONE: DocumentExtension = {};

// What the loaded modules add to `type` (nothing until they are loaded).
export const extensionOf = (type: string): DocumentExtension => merged.get(type) ?? NONE;
