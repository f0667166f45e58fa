import Box from "@mui/material/Box";
import Container from "@mui/material/Container";
import Typography from "@mui/material/Typography";
import { usePageTitle } from "../platform/ui/usePageTitle.ts";

const SECTIONS: { title: string; body: string[] }[] = [
  {
    title: "Who we are",
    body: [
      "Workmetrics provides business management software to companies. For the business records a company keeps in its workspace — customers, suppliers, products, documents and messages — the company is the data controller and we process that data on its behalf. For the people who visit this site, book a demo or hold a Workmetrics login, we are the controller.",
    ],
  },
  {
    title: "What we collect",
    body: [
      "Account data: your name, e-mail address, phone number if you give it, your password (stored only as a salted argon2id hash), and the role your company assigns you.",
      "Demo requests: the name, work e-mail, company, company size and message you send us from the booking form.",
      "Usage data: sign-in times, the device and browser of each active session, and request logs we keep to secure the service and fix faults.",
      "Workspace data: whatever your company enters or connects, including e-mail and messaging channels it chooses to link.",
    ],
  },
  {
    title: "How we use it",
    body: [
      "To run the service your company has subscribed to, to keep accounts secure (for example to detect repeated failed sign-ins), to answer demo requests and support questions, and to send service e-mails such as confirmations and password resets. We do not sell personal data and we do not use workspace data for advertising.",
    ],
  },
  {
    title: "Cookies and local storage",
    body: [
      "We set only the cookies the app needs: session cookies (prefixed sb) that keep you signed in for up to 8 hours, or 7 days if you choose to be remembered. Your display preferences — light or dark mode, sidebar style — are kept in your browser's local storage and never leave your device.",
    ],
  },
  {
    title: "Keeping data apart and safe",
    body: [
      "Every company's data is kept in its own workspace and separated twice: by the application and again by the database's row-level security. Connections are encrypted, passwords are hashed, and access inside a workspace follows the roles and permissions its administrators set.",
    ],
  },
  {
    title: "How long we keep it",
    body: [
      "Workspace data is kept while the subscription is active and for 90 days after it ends, so the company can export it; then it is deleted. Demo requests are deleted after 12 months. Financial records may be kept longer where the law requires.",
    ],
  },
  {
    title: "Your rights",
    body: [
      "You may ask to see, correct or delete your personal data, or object to how we use it. If your data sits in a company's workspace, we will pass your request to that company. Write to privacy@workmetrics.app and we will answer within 30 days.",
    ],
  },
];

export default function Privacy() {
  usePageTitle("Privacy notice");
  return (
    <Container maxWidth="md" sx={{ py: { xs: 4, md: 8 } }}>
      <Typography variant="h3" component="h1" gutterBottom>
        Privacy notice
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        Last updated 1 November 2026. This notice explains what personal data Workmetrics collects, why, and the choices
        you have.
      </Typography>
      {SECTIONS.map((s) => (
        <Box component="section" key={s.title} sx={{ mb: 4 }}>
          <Typography variant="h5" component="h2" gutterBottom>
            {s.title}
          </Typography>
          {s.body.map((p) => (
            <Typography key={p.slice(0, 24)} sx={{ mb: 1.5, lineHeight: 1.7 }}>
              {p}
            </Typography>
          ))}
        </Box>
      ))}
    </Container>
  );
}
