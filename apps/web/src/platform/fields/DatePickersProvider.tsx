import { AdapterDayjs } from "@mui/x-date-pickers/AdapterDayjs";
import { LocalizationProvider } from "@mui/x-date-pickers/LocalizationProvider";
import type { ReactNode } from "react";

// DESIGN §2.4: the date pickers' one LocalizationProvider, mounted by the pages that have date fields (the
// dashboard, book-a-demo) so the public landing bundle never carries it. Its own file: the dashboard shell loads
// this, not the pickers, which come with the forms.
export function DatePickersProvider({ children }: { children: ReactNode }) {
  return <LocalizationProvider dateAdapter={AdapterDayjs}>{children}</LocalizationProvider>;
}
