import { RESOURCES } from "@workmetrics/domain/resources";
import { describe, expect, it } from "vitest";
import { MODULES } from "./modules.ts";

// The navigation repeats each resource's title and tier feature so the first bundle needs no registry;
// this keeps the two equal.
describe("resource modules", () => {
  const resourceModules = MODULES.filter((m) => m.resource);

  it("each is a registry resource with that route, title and gate", () => {
    for (const m of resourceModules) {
      const def = RESOURCES.find((r) => r.route === m.path);
      expect(def, m.path).toBeDefined();
      if (!def) continue;
      expect(m.title, m.path).toBe(def.plural);
      expect(m.resource?.name, m.path).toBe(def.name);
      expect(m.children?.map((c) => c.path)).toEqual(["new", ":id", ":id/edit"]);
    }
  });

  it("covers every master-data route of spec §2", () => {
    const routes = resourceModules.map((m) => m.path);
    for (const r of [
      "products",
      "categorys",
      "locations",
      "brands",
      "services",
      "companies",
      "contacts",
      "memos",
      "projects",
      "project-brands",
      "project-currencies",
      "currency-factors",
      "project-groups",
      "feedbacks",
    ]) {
      expect(routes).toContain(r);
    }
  });
});
