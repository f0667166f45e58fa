import { type ComponentProps, createContext, type ReactNode, type Ref, useContext } from "react";

// Issue 21 §5: the landing page (/) opens without React Router, whose data router is 30 KiB of gzip the landing page
// would load only to draw links (main.tsx). Pages that may open that way link through AppLink and read the query
// through useAppSearchParams: under the router (App.tsx provides it) they are React Router's Link and
// useSearchParams; without it AppLink is an anchor whose first tap loads the router and opens the page in place.

export type AppLinkProps = Omit<ComponentProps<"a">, "href"> & { to: string; ref?: Ref<HTMLAnchorElement> };
export type Navigation = { Link: (props: AppLinkProps) => ReactNode; useSearchParams: () => URLSearchParams };

// Set by main.tsx on a page opened without the router: loads it and renders the app at the current address.
let openApp: (() => Promise<void>) | null = null;
let warm: (() => void) | null = null;
export function withoutRouter(open: () => Promise<void>, preload: () => void): void {
  openApp = open;
  warm = preload;
}

const isPlainClick = (e: React.MouseEvent<HTMLAnchorElement>) =>
  !e.defaultPrevented && e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;

function PlainLink({ to, onClick, ref, ...rest }: AppLinkProps) {
  return (
    <a
      ref={ref}
      href={to}
      onPointerEnter={() => warm?.()}
      onFocus={() => warm?.()}
      onClick={(e) => {
        onClick?.(e);
        if (!openApp || !isPlainClick(e) || (rest.target && rest.target !== "_self")) return;
        const url = new URL(to, window.location.href);
        if (url.origin !== window.location.origin) return;
        // A link to a place on this page (/#features) scrolls as any anchor does.
        if (url.pathname === window.location.pathname && url.search === window.location.search && url.hash) return;
        e.preventDefault();
        window.history.pushState(null, "", url);
        // Should the router's code not load (offline, a new release), the browser opens the page itself.
        openApp().catch(() => window.location.assign(url));
      }}
      {...rest}
    />
  );
}

const plain: Navigation = {
  Link: PlainLink,
  useSearchParams: () => new URLSearchParams(window.location.search),
};

const NavigationContext = createContext<Navigation>(plain);
export const NavigationProvider = NavigationContext.Provider;

export function AppLink(props: AppLinkProps) {
  const { Link } = useContext(NavigationContext);
  return <Link {...props} />;
}

export function useAppSearchParams(): URLSearchParams {
  return useContext(NavigationContext).useSearchParams();
}
