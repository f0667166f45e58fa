import { deflateSync } from "node:zlib";
import type { Locator, Page } from "playwright-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appUrl, type Browser, hasChromium, openBrowser, screenshot, signIn, watchErrors } from "../browser.ts";

// A 96×96 teal PNG, encoded here so the test needs no fixture file.
function png(size: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [54, 161, 207]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(pixels)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
const PNG = png(96);

function pdf(text: string): Buffer {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${`BT /F1 18 Tf 30 100 Td (${text}) Tj ET`.length} >>\nstream\nBT /F1 18 Tf 30 100 Td (${text}) Tj ET\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

const row = (page: Page, name: string) => page.getByTestId("file-row").filter({ hasText: name });

async function rowAction(page: Page, name: string, action: string): Promise<void> {
  await page.getByRole("button", { name: `Actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: action }).click();
}

// Toasts by their role; a CSS locator, since an open MUI dialog hides the rest of the page from the a11y tree.
const toast = (page: Page, text: string): Locator => page.locator('[role="status"]', { hasText: text });

describe.skipIf(!hasChromium)("My files in Chromium", () => {
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeEach(async () => {
    browser = await openBrowser();
    page = await browser.context.newPage();
    errors = watchErrors(page);
  });
  afterEach(async () => {
    await browser?.close();
  });

  it("uploads, lists, previews, renames, moves, shares and deletes a file", async () => {
    await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: appUrl("/") });
    await signIn(page, "owner@demo.test");
    await page.getByRole("link", { name: "My files" }).click();
    await page.waitForURL(/\/dashboard\/my-files$/);
    await page.getByRole("heading", { name: "My files" }).waitFor();
    // First use: the workspace's bucket is created and the page says there is nothing yet.
    await page.getByText("No files yet").waitFor();
    await screenshot(page, "files-empty");

    await page.getByLabel("Choose files to upload").setInputFiles([
      { name: "logo.png", mimeType: "image/png", buffer: PNG },
      { name: "Quarterly report.pdf", mimeType: "application/pdf", buffer: pdf("Quarterly report") },
    ]);
    await toast(page, "Uploaded logo.png").waitFor();
    await toast(page, "Uploaded Quarterly report.pdf").waitFor();
    await row(page, "logo.png").waitFor();
    expect(await page.getByTestId("file-row").allTextContents()).toEqual([
      expect.stringMatching(/^Quarterly report\.pdf.*application\/pdf/),
      expect.stringMatching(/^logo\.png.*image\/png/),
    ]);
    await screenshot(page, "files-list");

    // Preview in the right aside: the image really loads.
    await page.getByRole("button", { name: "logo.png", exact: true }).click();
    const aside = page.getByRole("dialog", { name: "logo.png" });
    const img = aside.getByRole("img", { name: "logo.png" });
    await img.waitFor();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(96);
    await aside.getByText("image/png").waitFor();
    await screenshot(page, "files-preview-image");
    await aside.getByRole("button", { name: "Close panel" }).click();

    await page.getByRole("button", { name: "Quarterly report.pdf", exact: true }).click();
    const pdfAside = page.getByRole("dialog", { name: "Quarterly report.pdf" });
    await pdfAside.locator("iframe[title='Preview of Quarterly report.pdf']").waitFor();
    await page.waitForTimeout(1000);
    await screenshot(page, "files-preview-pdf");
    await pdfAside.getByRole("button", { name: "Close panel" }).click();

    // Rename, refusing a name that tries to leave its folder first.
    await rowAction(page, "logo.png", "Rename");
    const dialog = page.getByRole("dialog", { name: "Rename file" });
    await dialog.getByLabel("New name").fill("../escape.png");
    await dialog.getByRole("button", { name: "Rename" }).click();
    await dialog.getByText("A name cannot contain a slash.").waitFor();
    await dialog.getByLabel("New name").fill("..");
    await dialog.getByRole("button", { name: "Rename" }).click();
    await dialog.getByText('A path cannot contain "." or ".." segments.').waitFor();
    await screenshot(page, "files-rename-error");
    await dialog.getByLabel("New name").fill("brand-logo.png");
    await dialog.getByRole("button", { name: "Rename" }).click();
    await toast(page, "Renamed to brand-logo.png").waitFor();
    await row(page, "brand-logo.png").waitFor();
    expect(await page.getByRole("button", { name: "logo.png", exact: true }).count()).toBe(0);

    // A new folder opens at once; breadcrumbs lead back; the file moves into it.
    await page.getByRole("button", { name: "New folder" }).click();
    await page.getByLabel("Folder name").fill("Invoices");
    await page.getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/path=Invoices/);
    await page.getByText("This folder is empty").waitFor();
    await page.getByRole("navigation", { name: "Folder" }).getByRole("button", { name: "My files" }).click();
    await row(page, "Invoices").waitFor();
    await rowAction(page, "brand-logo.png", "Move to folder");
    const move = page.getByRole("dialog", { name: "Move “brand-logo.png”" });
    await move.getByRole("button", { name: "Invoices" }).click();
    await move.getByRole("button", { name: "Move here" }).click();
    await toast(page, "Moved brand-logo.png to Invoices").waitFor();
    await page.getByRole("button", { name: "Invoices", exact: true }).click();
    await row(page, "brand-logo.png").waitFor();

    // A share link that expires in an hour, copied to the clipboard; it opens without a session.
    await rowAction(page, "brand-logo.png", "Share link");
    const share = page.getByRole("dialog", { name: "Share “brand-logo.png”" });
    await share.getByLabel("1 hour").check();
    await share.getByRole("button", { name: "Create link" }).click();
    await toast(page, "Link copied. It expires in 1 hour.").waitFor();
    const link = await share.getByLabel("Share link (expires in 1 hour)").inputValue();
    expect(link).toMatch(/\/storage\/v1\/object\/sign\/files\/Invoices\/brand-logo\.png\?token=/);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await screenshot(page, "files-share");
    const res = await fetch(link);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toBe("max-age=3600");
    await share.getByRole("button", { name: "Done" }).click();

    // Delete asks first.
    await rowAction(page, "brand-logo.png", "Delete");
    const confirm = page.getByRole("dialog", { name: "Delete file?" });
    await confirm
      .getByText("“brand-logo.png” will be deleted for everyone in your workspace.", { exact: false })
      .waitFor();
    await page.waitForTimeout(400); // let the menu fade out and the dialog fade in
    await screenshot(page, "files-delete-confirm");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await toast(page, "Deleted brand-logo.png").waitFor();
    await page.getByText("This folder is empty").waitFor();
    expect(errors).toEqual([]);
  });

  it("takes dropped files and refuses names the server would refuse", async () => {
    await signIn(page, "owner@pro.test", { sub: "pro" });
    await page.goto(appUrl("/dashboard/my-files", "pro"));
    await page.getByRole("heading", { name: "My files" }).waitFor();
    await page.getByText("No files yet").waitFor();
    // Nothing of demo's shows up in pro.
    expect(await page.getByTestId("file-row").count()).toBe(0);

    const transfer = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(["hello from a drop"], "dropped.txt", { type: "text/plain" }));
      return dt;
    });
    await page.getByTestId("drop-zone").dispatchEvent("dragover", { dataTransfer: transfer });
    await page.getByText("Drop to upload to My files").waitFor();
    await screenshot(page, "files-drag");
    await page.getByTestId("drop-zone").dispatchEvent("drop", { dataTransfer: transfer });
    await toast(page, "Uploaded dropped.txt").waitFor();
    await row(page, "dropped.txt").waitFor();

    // On a slow uplink the upload shows its progress until it lands.
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 512 * 1024,
    });
    await page.getByLabel("Choose files to upload").setInputFiles({
      name: "site-photos.zip",
      mimeType: "application/zip",
      buffer: Buffer.alloc(2 * 1024 * 1024, 7),
    });
    const bar = page.getByRole("progressbar", { name: "Uploading site-photos.zip" });
    await bar.waitFor();
    await expect
      .poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 10_000 })
      .toBeGreaterThan(0);
    await screenshot(page, "files-upload-progress");
    await toast(page, "Uploaded site-photos.zip").waitFor();
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await bar.waitFor({ state: "detached" });
    await row(page, "site-photos.zip").waitFor();

    await page.getByLabel("Choose files to upload").setInputFiles({
      name: "100%.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("x"),
    });
    await toast(page, "100%.txt: A file name cannot contain ? # % \\ or control characters.").waitFor();
    // Stacked toasts sit over the header's buttons (top-right, spec §2) until they time out.
    await expect.poll(() => page.locator('[role="status"]').count(), { timeout: 15_000 }).toBe(0);
    await page.getByRole("button", { name: "New folder" }).click();
    await page.getByLabel("Folder name").fill("a/..");
    await page.getByRole("button", { name: "Create" }).click();
    await page.getByText("A name cannot contain a slash.").waitFor();
    await page.getByRole("button", { name: "Cancel" }).click();
    // A hand-typed folder path that climbs out is ignored: the page shows the top level.
    await page.goto(appUrl("/dashboard/my-files?path=../../etc", "pro"));
    await row(page, "dropped.txt").waitFor();
    await screenshot(page, "files-bad-input");
    expect(errors).toEqual([]);
  });
  // Issue 9 §3: the page offers what the role may do, as the server decides it.
  it("offers a salesperson upload and sharing but not rename, move or delete", async () => {
    await signIn(page, "sales@demo.test");
    await page.goto(appUrl("/dashboard/my-files"));
    await page
      .getByLabel("Choose files to upload")
      .setInputFiles([{ name: "visit-notes.txt", mimeType: "text/plain", buffer: Buffer.from("Customer visit") }]);
    await toast(page, "Uploaded visit-notes.txt").waitFor();
    await page.getByRole("button", { name: "Actions for visit-notes.txt" }).click();
    await page.getByRole("menuitem", { name: "Share link" }).waitFor();
    expect(await page.getByRole("menuitem").allTextContents()).toEqual(["Details", "Download", "Share link"]);
    expect(errors).toEqual([]);
  });

  it("offers a driver no files at all: no menu entry, no page, no upload", async () => {
    await signIn(page, "driver@demo.test");
    await page.goto(appUrl("/dashboard/my-files"));
    await page.getByText(/You do not have permission to open the workspace.s files/).waitFor();
    expect(await page.getByRole("link", { name: "My files" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Upload" }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
