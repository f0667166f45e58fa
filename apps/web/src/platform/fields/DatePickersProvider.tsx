import { AdapterDayjs } from "@mui/x-date-pickers/AdapterDayjs";
import { LocalizationProvider } from "@mui/x-date-pickers/LocalizationProvider";
import { workspaceLocale } from "@workmetrics/domain/locale";
import "dayjs/locale/en-au";
import "dayjs/locale/en-ca";
import "dayjs/locale/en-gb";
import "dayjs/locale/en-in";
import "dayjs/locale/en-nz";
import "dayjs/locale/en-sg";
import type { ReactNode } from "react";
import { useViewer } from "../session/viewer.tsx";

// The dayjs locales the pickers know (each a few hundred bytes); a workspace locale without one types as en-SG
// (DD/MM/YYYY), US English as dayjs's own "en" (MM/DD/YYYY).
const PICKER_LOCALES = new Set(["en-au", "en-ca", "en-gb", "en-in", "en-nz", "en-sg"]);

export function pickerLocale(locale: string): string {
  const tag = locale.toLowerCase();
  if (tag === "en-us" || tag === "en") return "en";
  return PICKER_LOCALES.has(tag) ? tag : "en-sg";
}

// DESIGN §2.4: the date pickers' one LocalizationProvider, mounted by the pages that have date fields (the
// dashboard, book-a-demo) so the public landing bundle never carries it. Its own file: the dashboard shell loads
// this, not the pickers, which come with the forms. Issue 21 §1: the fields read and type in the workspace's
// locale (DD/MM/YYYY in an SGD workspace), as the lists show the dates.
export function DatePickersProvider({ children }: { children: ReactNode }) {
  const { currency } = useViewer();
  return (
    <LocalizationProvider
      dateAdapter={AdapterDayjs}
      adapterLocale={pickerLocale(workspaceLocale({ baseCurrency: currency }))}
    >
      {children}
    </LocalizationProvider>
  );
}
