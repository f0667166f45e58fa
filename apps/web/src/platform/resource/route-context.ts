import { createContext, useContext } from "react";

// The resource route a generic page serves ("products"), provided by the module route that renders it.
const RouteCtx = createContext<string | null>(null);

export const ResourceRouteProvider = RouteCtx.Provider;

export function useResourceRoute(): string {
  const route = useContext(RouteCtx);
  if (route === null) throw new Error("A generic resource page outside a resource route");
  return route;
}
