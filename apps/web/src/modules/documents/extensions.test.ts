import { lazy } from "react";
import { describe, expect, it } from "vitest";
import { documentExtensionsLoaded, extensionOf, registerDocumentExtensions } from "./extensions.ts";

// The registry the modules extend the document pages through (issue 20 §5): nothing until loaded, then every
// module's buttons for a type together and the other fields as the module gave them.
describe("document page extensions", () => {
  it("merges what the modules register for a type once they are loaded, one promise for all", async () => {
    const a = lazy(async () => ({ default: () => null }));
    const b = lazy(async () => ({ default: () => null }));
    const blocked = () => "not yet";
    registerDocumentExtensions(async () => ({ default: { test_type: { pageActions: [a], convertOnly: true } } }));
    registerDocumentExtensions(async () => ({ default: { test_type: { pageActions: [b], blocked } } }));
    expect(extensionOf("test_type")).toEqual({});
    const loaded = documentExtensionsLoaded();
    expect(documentExtensionsLoaded()).toBe(loaded);
    await loaded;
    const ext = extensionOf("test_type");
    expect(ext.pageActions).toEqual([a, b]);
    expect(ext.convertOnly).toBe(true);
    expect(ext.blocked?.(null, {}, [])).toBe("not yet");
    expect(extensionOf("other_type")).toEqual({});
  });
});
