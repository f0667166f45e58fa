import "@fontsource/roboto/400.css";
import "@fontsource/roboto/500.css";
import "@fontsource/roboto/700.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { withoutRouter } from "./app/links.tsx";
import { LandingWithoutRouter } from "./public/LandingWithoutRouter.tsx";

const element = document.getElementById("root");
if (!element) throw new Error("#root missing from index.html");
const root = createRoot(element);

// The app (React Router, the routes, the toaster) renders at the current address; loaded once.
let app: Promise<void> | null = null;
const loadApp = () => import("./app/App.tsx");
function openApp(): Promise<void> {
  app ??= loadApp().then(({ App }) => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
  app.catch(() => {
    app = null;
  });
  return app;
}

// Issue 21 §5: the landing page opens without the router (app/links.tsx): its first link followed loads it.
if (window.location.pathname === "/") {
  withoutRouter(openApp, () => void loadApp().catch(() => undefined));
  root.render(
    <StrictMode>
      <LandingWithoutRouter />
    </StrictMode>,
  );
} else {
  void openApp();
}
