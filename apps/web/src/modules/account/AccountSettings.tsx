import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { CredentialsCard } from "./CredentialsCard.tsx";
import { MfaCard } from "./MfaCard.tsx";
import { ProfileCard } from "./ProfileCard.tsx";
import { SessionsCard } from "./SessionsCard.tsx";

export default function AccountSettings() {
  usePageTitle("My account");
  return (
    <Stack spacing={3} sx={{ maxWidth: 880 }}>
      <Typography variant="h4" component="h1">
        My account
      </Typography>
      <ProfileCard />
      <CredentialsCard />
      <MfaCard />
      <SessionsCard />
    </Stack>
  );
}
