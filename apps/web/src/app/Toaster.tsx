import { useTheme } from "@mui/material/styles";
import { TOAST_DURATION } from "@workmetrics/domain";
import { Toaster as HotToaster } from "react-hot-toast";

// DESIGN §2.4: top-right; 4000 ms blank/error, 2000 ms success, loading until done.
export default function Toaster() {
  const theme = useTheme();
  return (
    <HotToaster
      position="top-right"
      toastOptions={{
        duration: TOAST_DURATION.blank,
        success: { duration: TOAST_DURATION.success },
        error: { duration: TOAST_DURATION.error },
        loading: { duration: TOAST_DURATION.loading },
        style: { background: theme.palette.background.paper, color: theme.palette.text.primary },
      }}
    />
  );
}
