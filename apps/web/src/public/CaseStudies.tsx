import Box from "@mui/material/Box";
import Container from "@mui/material/Container";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import type { CaseStudy } from "./queries.ts";

export function CaseStudies({ studies, loading }: { studies: CaseStudy[] | undefined; loading: boolean }) {
  if (!loading && (!studies || studies.length === 0)) return null;
  return (
    <Container component="section" maxWidth="lg" sx={{ py: { xs: 6, md: 9 } }} aria-labelledby="case-studies">
      <Typography id="case-studies" variant="h4" component="h2" gutterBottom>
        Companies that run on Workmetrics
      </Typography>
      <Box sx={{ display: "grid", gap: 3, gridTemplateColumns: { xs: "1fr", md: "repeat(3, 1fr)" }, mt: 3 }}>
        {loading
          ? [0, 1, 2].map((i) => <Skeleton key={i} variant="rounded" height={300} />)
          : studies?.map((s) => (
              <Box
                component="article"
                key={s.id}
                data-testid="case-study"
                sx={{
                  p: 3,
                  borderRadius: 2,
                  border: 1,
                  borderColor: "divider",
                  bgcolor: "background.paper",
                  display: "flex",
                  flexDirection: "column",
                  gap: 1.5,
                }}
              >
                <Typography variant="overline" color="primary" sx={{ fontWeight: 700, lineHeight: 1.4 }}>
                  {s.companyName} · {s.industry}
                </Typography>
                <Typography variant="h6" component="h3">
                  {s.title}
                </Typography>
                {s.metricValue && (
                  <Box>
                    <Typography sx={{ fontSize: 28, fontWeight: 700, color: "secondary.main" }}>
                      {s.metricValue}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {s.metricLabel}
                    </Typography>
                  </Box>
                )}
                <Typography color="text.secondary">{s.summary}</Typography>
                {s.quote && (
                  <Box component="blockquote" sx={{ m: 0, pl: 2, borderLeft: 3, borderColor: "primary.main" }}>
                    <Typography sx={{ fontStyle: "italic" }}>“{s.quote}”</Typography>
                    {s.quoteAuthor && (
                      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                        — {s.quoteAuthor}
                      </Typography>
                    )}
                  </Box>
                )}
              </Box>
            ))}
      </Box>
    </Container>
  );
}
