import { type RefObject, useEffect } from "react";
import { useBlocker } from "react-router";
import { ConfirmDialog } from "../ui/ConfirmDialog.tsx";

// Leaving a form with unsaved changes asks first: in-app navigation through React Router's blocker, closing or
// reloading the tab through beforeunload. `saving` lets a successful save navigate away without asking.
export function UnsavedChanges({ dirty, saving }: { dirty: boolean; saving: RefObject<boolean> }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && !saving.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      if (saving.current) return;
      e.preventDefault();
      e.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty, saving]);
  return (
    <ConfirmDialog
      open={blocker.state === "blocked"}
      title="Discard your changes?"
      body="You have changes that are not saved. If you leave this page now, they are lost."
      confirmLabel="Discard changes"
      destructive
      onCancel={() => blocker.reset?.()}
      onConfirm={() => blocker.proceed?.()}
    />
  );
}
