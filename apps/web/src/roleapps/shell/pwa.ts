// Issue 22 "installable": on a role app's host the page names its manifest (the server answers each host's own:
// GET /manifest.webmanifest) and registers the service worker that keeps the app's shell for offline use (GET
// /sw.js, scope /). Only on role hosts: the back office is not an offline app.
export function installRoleApp(themeColor: string): void {
  const head = document.head;
  if (!head.querySelector('link[rel="manifest"]')) {
    const link = document.createElement("link");
    link.rel = "manifest";
    link.href = "/manifest.webmanifest";
    head.appendChild(link);
  }
  let meta = head.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  if (!meta) {
    meta = document.createElement("meta");
    meta.name = "theme-color";
    head.appendChild(meta);
  }
  meta.content = themeColor;
  if (!("serviceWorker" in navigator) || import.meta.env.DEV) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // Without it the app still works online; offline it cannot start (the browser says so).
  });
}
