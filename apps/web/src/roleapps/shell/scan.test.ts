import { describe, expect, it } from "vitest";
import { createWedgeDetector } from "./scan-core.ts";
import { activeTab, tabPath } from "./tabs.ts";

// A keyboard-wedge scanner types fast and ends with Enter; a person types slowly (issue 22 "Barcodes").
const feed = (keys: string[], gapMs: number, start = 1000) => {
  const d = createWedgeDetector();
  return keys.map((k, i) => d.key(k, start + i * gapMs)).filter(Boolean);
};

describe("wedge scanner bursts", () => {
  it("reads a fast burst ending in Enter as one code", () => {
    expect(feed([..."8881234000017", "Enter"], 8)).toEqual(["8881234000017"]);
  });
  it("ignores the same keys typed by a person", () => {
    expect(feed([..."8881234000017", "Enter"], 150)).toEqual([]);
  });
  it("ignores an Enter alone and a burst too short to be a code", () => {
    expect(feed(["Enter"], 5)).toEqual([]);
    expect(feed([..."12", "Enter"], 5)).toEqual([]);
  });
  it("starts afresh after a pause, so earlier stray keys do not join the code", () => {
    const d = createWedgeDetector();
    d.key("x", 0);
    d.key("y", 10);
    const code = [..."ABC-123", "Enter"].map((k, i) => d.key(k, 1000 + i * 5)).filter(Boolean);
    expect(code).toEqual(["ABC-123"]);
  });
  it("keeps Shift inside a burst (capitals) but not other keys", () => {
    const d = createWedgeDetector();
    const keys = ["Shift", "S", "K", "U", "-", "1", "Enter"];
    expect(keys.map((k, i) => d.key(k, i * 5)).filter(Boolean)).toEqual(["SKU-1"]);
    const e = createWedgeDetector();
    expect(["1", "2", "ArrowLeft", "3", "4", "Enter"].map((k, i) => e.key(k, i * 5)).filter(Boolean)).toEqual([]);
  });
});

describe("bottom tabs", () => {
  const tabs = [{ to: "" }, { to: "stops" }, { to: "stops/history" }, { to: "/dashboard/settings" }];
  it("resolves relative tabs under /dashboard", () => {
    expect(tabs.map((t) => tabPath(t.to))).toEqual([
      "/dashboard",
      "/dashboard/stops",
      "/dashboard/stops/history",
      "/dashboard/settings",
    ]);
  });
  it("marks the deepest tab the address is under", () => {
    expect(activeTab("/dashboard", tabs)).toBe(0);
    expect(activeTab("/dashboard/stops/42", tabs)).toBe(1);
    expect(activeTab("/dashboard/stops/history", tabs)).toBe(2);
    expect(activeTab("/dashboard/settings/x", tabs)).toBe(3);
    expect(activeTab("/elsewhere", tabs)).toBe(-1);
  });
});
