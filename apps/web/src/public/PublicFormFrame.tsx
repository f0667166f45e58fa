import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import Container from "@mui/material/Container";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type ReactNode, useEffect, useState } from "react";
import { ApiError } from "../platform/api.ts";

// The frame of a public page opened from a link without an account (order form, discount request, project
// registration): the server's refusal in words (410 expired, 429 too many, 404), a spinner while loading, then the
// workspace's logo and name in its colour above the page's own content.

// Loads what the page shows, again whenever key changes; the server's refusal (its message) or a failure to load
// (failure) becomes `gone`, shown by PublicFormFrame in place of the page.
export function usePublicLoad<T>(key: string, load: (signal: AbortSignal) => Promise<T>, failure: string) {
  const [loaded, setLoaded] = useState<T | null>(null);
  const [gone, setGone] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on what the page loads (token or workspace)
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal)
      .then(setLoaded)
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setGone(err instanceof ApiError ? err.message : failure);
      });
    return () => controller.abort();
  }, [key]);
  return { loaded, gone };
}

type Brand = { name: string; logo: string | null; primary_color: string | null };

export function PublicFormFrame<T>(props: {
  gone: string | null;
  loaded: T | null;
  workspace(loaded: T): Brand;
  loadingLabel: string;
  children(loaded: T): ReactNode;
}) {
  const { gone, loaded } = props;
  if (gone) {
    return (
      <Container maxWidth="sm" sx={{ py: 8 }}>
        <Alert severity="info" role="status">
          {gone}
        </Alert>
      </Container>
    );
  }
  if (loaded === null) {
    return (
      <Box sx={{ display: "grid", placeItems: "center", minHeight: "60vh" }}>
        <CircularProgress aria-label={props.loadingLabel} />
      </Box>
    );
  }
  const workspace = props.workspace(loaded);
  return (
    <Container maxWidth="md" sx={{ py: { xs: 2, sm: 5 } }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: "center", mb: 3 }}>
        {workspace.logo && (
          <Box component="img" src={workspace.logo} alt="" sx={{ height: 48, maxWidth: 160, objectFit: "contain" }} />
        )}
        <Typography variant="h6" component="p" sx={{ color: workspace.primary_color ?? "primary.main" }}>
          {workspace.name}
        </Typography>
      </Stack>
      {props.children(loaded)}
    </Container>
  );
}
