import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { Link as RouterLink } from "react-router";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { LeaveRequestForm } from "./LeaveRequestForm.tsx";
import { Balances, OwnRequests, ToDecide } from "./LeaveTables.tsx";

// Issue 21 §4 "/dashboard/hr": every member's leave — ask for it, see their requests and balances; a manager
// decides their reports' requests here; HR sees everyone's balances. The team's approved leave is on the calendar.
export default function LeavePage() {
  usePageTitle("Leave");
  const { session } = useSession();
  const year = new Date().getFullYear();
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ alignItems: "center", flexWrap: "wrap" }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          Leave
        </Typography>
        <Button component={RouterLink} to="/dashboard/team-challenge/calendar" variant="outlined" size="small">
          Team calendar
        </Button>
      </Stack>
      <LeaveRequestForm year={year} />
      <ToDecide />
      <OwnRequests userId={session?.user.id} />
      <Balances year={year} />
    </Stack>
  );
}
