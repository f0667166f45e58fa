import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "../../platform/api.ts";

type Banner = { id: number; title: string; body: string | null; linkUrl: string | null; linkLabel: string | null };
const DISMISSED = "workmetrics.dismissedBanners";

// The platform's announcements for dashboards, within their schedule; each can be dismissed for the session.
export function DashboardBanners() {
  const banners = useQuery({
    queryKey: ["dashboard-banners"],
    queryFn: () => apiFetch<Banner[]>("/api/public/banners/dashboard"),
    staleTime: 5 * 60_000,
  });
  const [dismissed, setDismissed] = useState<number[]>(() => JSON.parse(sessionStorage.getItem(DISMISSED) ?? "[]"));
  const shown = (banners.data ?? []).filter((b) => !dismissed.includes(b.id));
  if (shown.length === 0) return null;
  const dismiss = (id: number) => {
    const next = [...dismissed, id];
    sessionStorage.setItem(DISMISSED, JSON.stringify(next));
    setDismissed(next);
  };
  return (
    <Stack spacing={1} sx={{ mb: 2 }}>
      {shown.map((b) => (
        <Alert
          key={b.id}
          severity="info"
          data-testid="dashboard-banner"
          onClose={() => dismiss(b.id)}
          action={
            b.linkUrl ? (
              <Button color="inherit" size="small" href={b.linkUrl}>
                {b.linkLabel ?? "Learn more"}
              </Button>
            ) : undefined
          }
        >
          <strong>{b.title}</strong>
          {b.body ? ` — ${b.body}` : ""}
        </Alert>
      ))}
    </Stack>
  );
}
