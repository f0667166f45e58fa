import { describe, expect, it } from "vitest";
import { entryNameProblem, formatBytes, objectNameProblem, utf8Length } from "./storage.ts";

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
  });
});
