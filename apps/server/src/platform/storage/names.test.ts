import { describe, expect, it } from "vitest";
import {
  bucketName,
  cacheControl,
  contentDisposition,
  fileSizeLimit,
  listPrefix,
  mimeAllowed,
  objectName,
  safeInline,
} from "./names.ts";

const code = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (err) {
    return (err as { code?: string }).code;
  }
};

describe("object names", () => {
  it.each(["a.txt", "Reports/2026/Q1 sales.pdf", "été/фото.jpg", "a/.emptyFolderPlaceholder", "x(1) & y+z.txt"])(
    "accepts %s",
    (name) => expect(objectName(name)).toBe(name),
  );

  it.each([
    ["", "empty"],
    ["/etc/passwd", "absolute"],
    ["a/../b.txt", "dot-dot"],
    ["../b.txt", "leading dot-dot"],
    ["a/..", "trailing dot-dot"],
    ["a/./b", "dot"],
    ["a//b", "empty segment"],
    ["a/", "trailing slash"],
    ["a\\..\\b", "backslash"],
    ["a?b", "question mark"],
    ["a#b", "hash"],
    ["100%.txt", "percent"],
    ["a\u0000b", "NUL"],
    ["  /b", "blank folder"],
    ["x".repeat(256), "long segment"],
    [`${"abc/".repeat(300)}x`, "long path"],
  ])("refuses %j (%s)", (name) => expect(code(() => objectName(name))).toBe("InvalidKey"));
});

describe("bucket names", () => {
  it("accepts simple names and refuses the rest", () => {
    expect(bucketName("files")).toBe("files");
    expect(bucketName("Team_docs-2026.v1")).toBe("Team_docs-2026.v1");
    for (const bad of ["", ".hidden", "..", "a/b", "a b", "x".repeat(64), "list", "Public", 7]) {
      expect(code(() => bucketName(bad))).toBe("InvalidBucketName");
    }
  });
});

describe("list prefixes", () => {
  it("normalises to a folder path ending with a slash", () => {
    expect(listPrefix(undefined)).toBe("");
    expect(listPrefix("/")).toBe("");
    expect(listPrefix("docs")).toBe("docs/");
    expect(listPrefix("/docs/2026/")).toBe("docs/2026/");
    expect(code(() => listPrefix("docs/../other"))).toBe("InvalidKey");
  });
});

describe("serving rules", () => {
  it("shows images, PDFs and plain text inline, downloads HTML and SVG", () => {
    expect(safeInline("image/png")).toBe(true);
    expect(safeInline("application/pdf")).toBe(true);
    expect(safeInline("text/plain;charset=UTF-8")).toBe(true);
    expect(safeInline("image/svg+xml")).toBe(false);
    expect(safeInline("text/html")).toBe(false);
    expect(safeInline("application/javascript")).toBe(false);
  });

  it("names the file in Content-Disposition in ASCII and UTF-8", () => {
    expect(contentDisposition("attachment", 'Bon "été".pdf')).toBe(
      `attachment; filename="Bon __t__.pdf"; filename*=UTF-8''Bon%20%22%C3%A9t%C3%A9%22.pdf`,
    );
  });

  it("parses bucket size limits and mime rules", () => {
    expect(fileSizeLimit("20MB")).toBe(20 * 1024 * 1024);
    expect(fileSizeLimit(1000)).toBe(1000);
    expect(fileSizeLimit(null)).toBeNull();
    expect(code(() => fileSizeLimit("1GB"))).toBe("InvalidRequest");
    expect(code(() => fileSizeLimit("lots"))).toBe("InvalidRequest");
    expect(mimeAllowed("image/png", ["image/*"])).toBe(true);
    expect(mimeAllowed("application/pdf", ["image/*"])).toBe(false);
    expect(mimeAllowed("text/plain;charset=UTF-8", ["text/plain"])).toBe(true);
    expect(mimeAllowed("anything/else", null)).toBe(true);
  });

  it("keeps cache-control to max-age values, 3600 by default (spec §9)", () => {
    expect(cacheControl(undefined)).toBe("max-age=3600");
    expect(cacheControl("60")).toBe("max-age=60");
    expect(cacheControl("max-age=120")).toBe("max-age=120");
    expect(cacheControl("evil\r\nheader")).toBe("max-age=3600");
  });
});
