import BlockOutlined from "@mui/icons-material/BlockOutlined";
import LockOutlined from "@mui/icons-material/LockOutlined";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { FEATURES, type Refusal } from "@workmetrics/domain";
import type { ReactNode } from "react";
import { Link as RouterLink } from "react-router";
import { usePageTitle } from "./usePageTitle.ts";

// A page in place of content the person may not use: what it is, why, and the way on.
export function GateCard({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Card variant="outlined" sx={{ maxWidth: 560, mx: "auto", mt: { xs: 2, md: 6 } }}>
      <CardContent sx={{ p: 4 }}>
        <Stack spacing={2} sx={{ alignItems: "flex-start" }}>
          {icon}
          <Typography variant="h5" component="h1">
            {title}
          </Typography>
          {children}
        </Stack>
      </CardContent>
    </Card>
  );
}

// What to do about a refusal, by its reason (issue 9: a refusal says why, in the words of the one access rule).
function hint(reason: Refusal["reason"], subject: string): string {
  switch (reason) {
    case "permission":
      return `${subject} is not part of your role; ask your workspace administrator if you need it.`;
    case "workspace_only":
      return "Platform operators look after workspaces from the platform pages.";
    case "platform_only":
      return "This page is for the platform's operators.";
    default:
      return "";
  }
}

export function RefusedPage({
  subject,
  refusal,
  home,
}: {
  subject: string; // what was asked for: "Products", "New product"
  refusal: Pick<Refusal, "reason" | "message">;
  home: string;
}) {
  usePageTitle(subject);
  return (
    <GateCard icon={<BlockOutlined color="error" sx={{ fontSize: 40 }} />} title="You don't have access to this page">
      <Typography color="text.secondary">
        {sentence(refusal.message)} {hint(refusal.reason, subject)}
      </Typography>
      <Button variant="contained" component={RouterLink} to={home}>
        Go to the dashboard
      </Button>
    </GateCard>
  );
}

// A message as a sentence: one full stop, whether or not the message brought its own.
const sentence = (message: string): string => (message.endsWith(".") ? message : `${message}.`);

type TierRefusal = Extract<Refusal, { reason: "tier" }>;

// A page the workspace's plan does not include: which plan does, and the way to it (only for members whose role
// would then use it — the access rule checks the role before the plan).
export function UpgradeCard({
  subject,
  decision,
  current,
}: {
  subject: string;
  decision: TierRefusal;
  current?: string | null; // the workspace's plan, when known
}) {
  usePageTitle(subject);
  return (
    <GateCard
      icon={<LockOutlined color="primary" sx={{ fontSize: 40 }} />}
      title={`${subject} needs the ${decision.tierTitle} plan`}
    >
      <Typography color="text.secondary">
        {FEATURES[decision.feature]} is included from the {decision.tierTitle} plan
        {current ? `; your workspace is on ${current}` : ""}. Upgrade to unlock {subject.toLowerCase()} for everyone in
        your workspace.
      </Typography>
      <Button variant="contained" component={RouterLink} to="/pricing">
        Compare plans
      </Button>
    </GateCard>
  );
}

// The page in place of anything refused: the plan's way up for a tier, else why not.
export function RefusalPage({
  subject,
  refusal,
  home,
  current,
}: {
  subject: string;
  refusal: Refusal;
  home: string;
  current?: string | null;
}) {
  return refusal.reason === "tier" ? (
    <UpgradeCard subject={subject} decision={refusal} current={current} />
  ) : (
    <RefusedPage subject={subject} refusal={refusal} home={home} />
  );
}
