import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Container from "@mui/material/Container";
import { usePageTitle } from "../platform/ui/usePageTitle.ts";

// A public page's address without the token its link carries (the spec's bare /auth/supplier-discount-forms): an
// e-mail client that cut the link short, or an address typed by hand. Not a 404: the page exists, the link is
// incomplete, and the reader is told what to do.
export default function IncompleteLink({ what }: { what: string }) {
  usePageTitle("This link is incomplete");
  return (
    <Container maxWidth="sm" component="main" sx={{ py: 8 }}>
      <Alert severity="info" role="status">
        <AlertTitle>This link is incomplete</AlertTitle>
        The address of a {what} ends with a long code that says which one it is, and this one has none. Open the link
        from the e-mail again — if it is split over two lines, copy the whole of it into the address bar — or ask the
        company that sent it for a new one.
      </Alert>
    </Container>
  );
}
