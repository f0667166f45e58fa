import { describe, expect, it } from "vitest";
import { decide } from "./access.ts";
import { DEFAULT_ROLE_PERMISSIONS } from "./permissions.ts";
import { ROLE } from "./roles.ts";
import {
  entryNameProblem,
  formatBytes,
  objectNameProblem,
  STORAGE_ACTIONS,
  type StoragePermission,
  storageFullMessage,
  utf8Length,
} from "./storage.ts";
import { TIERS } from "./tiers.ts";

describe("file names", () => {
  it("accepts folders, spaces and any script", () => {
    for (const ok of ["a.txt", "Reports/2026/Q1 sales.pdf", "été/фото.jpg", "x(1) & y+z.txt"]) {
      expect(objectNameProblem(ok)).toBeNull();
    }
  });

  it("refuses traversal, absolute paths and URL characters with a reason", () => {
    expect(objectNameProblem("a/../b")).toBe('A path cannot contain "." or ".." segments.');
    expect(objectNameProblem("/etc/passwd")).toBe("A path cannot start with a slash.");
    expect(objectNameProblem("50%.txt")).toMatch(/cannot contain/);
    expect(objectNameProblem("a//b")).toMatch(/empty folder names/);
  });

  it("takes one segment for a typed name", () => {
    expect(entryNameProblem("Invoices")).toBeNull();
    expect(entryNameProblem("  ")).toBe("A name is required.");
    expect(entryNameProblem("a/b")).toBe("A name cannot contain a slash.");
    expect(entryNameProblem("..")).toBe('A path cannot contain "." or ".." segments.');
  });

  it("counts UTF-8 bytes and formats sizes", () => {
    expect(utf8Length("aé€😀")).toBe(1 + 2 + 3 + 4);
    expect(formatBytes(512)).toBe("512 bytes");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(50 * 1024 * 1024)).toBe("50 MB");
    expect(formatBytes(1024 * 1024 * 1024)).toBe("1 GB");
    expect(formatBytes(12.34 * 1024 * 1024 * 1024)).toBe("12.3 GB");
  });
});

// Issue 9 §3: the default file permissions of each system role, as the one access rule decides them.
describe("file permissions by role", () => {
  const R = "read",
    C = "create",
    U = "update",
    D = "delete";
  const table: Array<[string, number, string[], string[]]> = [
    // role, id, file actions, bucket actions
    ["Owner", ROLE.Owner, [R, C, U, D], [C, U, D]],
    ["Admin", ROLE.Admin, [R, C, U, D], [C, U, D]],
    ["Sales manager", ROLE.SalesManager, [R, C, U, D], []],
    ["Salesperson", ROLE.Salesperson, [R, C], []],
    ["Warehouse staff", ROLE.WarehouseStaff, [R, C], []],
    ["Finance manager", 40, [R, C, U, D], []],
    ["Procurement officer", 41, [R, C], []],
    ["Accounts", 42, [R, C], []],
    ["Driver", ROLE.Driver, [], []],
    ["POS staff", ROLE.PosStaff, [], []],
    ["Supplier", 43, [], []],
  ];
  it.each(table)("%s", (_title, roleId, files, buckets) => {
    const who = { kind: "member" as const, permissions: DEFAULT_ROLE_PERMISSIONS[roleId], features: [] };
    const allowed = (Object.keys(STORAGE_ACTIONS) as StoragePermission[]).filter(
      (p) => decide(who, STORAGE_ACTIONS[p]).allowed,
    );
    expect(allowed).toEqual([...files.map((a) => `file.${a}`), ...buckets.map((a) => `bucket.${a}`)]);
  });

  it("refuses with a message that says what was wanted", () => {
    const driver = { kind: "member" as const, permissions: DEFAULT_ROLE_PERMISSIONS[ROLE.Driver], features: [] };
    expect(decide(driver, STORAGE_ACTIONS["file.create"])).toMatchObject({
      allowed: false,
      message: "You do not have permission to upload files",
    });
  });
});

describe("storage quota", () => {
  it("grows with the tier and says how much a full workspace holds", () => {
    expect(TIERS.map((t) => formatBytes(t.storageQuotaMb * 1024 * 1024))).toEqual(["1 GB", "10 GB", "100 GB"]);
    expect(storageFullMessage(1024 ** 3, "Lite")).toBe(
      "This workspace's storage is full (1 GB on the Lite plan): delete files or upgrade",
    );
  });
});
