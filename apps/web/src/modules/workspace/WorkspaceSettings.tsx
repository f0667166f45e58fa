import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { Section } from "../account/Section.tsx";
import { CommissionSection } from "../commission/CommissionSection.tsx";
import { AddressSection } from "./AddressSection.tsx";
import { BrandSection } from "./BrandSection.tsx";
import { BusinessSection } from "./BusinessSection.tsx";
import { DocumentsSection } from "./DocumentsSection.tsx";
import { PlanSection } from "./PlanSection.tsx";

export default function WorkspaceSettings() {
  usePageTitle("Workspace settings");
  const { dbUser } = useSession();
  const ws = dbUser?.profile?.workspace;
  if (!ws) {
    return (
      <Section title="Workspace settings" description="Platform operators manage workspaces from the Workspaces page.">
        <span />
      </Section>
    );
  }
  return (
    <Stack spacing={3} sx={{ maxWidth: 900 }}>
      <Typography variant="h4" component="h1">
        Workspace settings
      </Typography>
      <BrandSection workspace={ws} />
      <AddressSection slug={ws.slug} />
      <BusinessSection />
      <DocumentsSection />
      <CommissionSection />
      <PlanSection tierTitle={ws.tier.title} />
    </Stack>
  );
}
