import Breadcrumbs from "@mui/material/Breadcrumbs";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import type { ResourceDef } from "@workmetrics/domain/resources/types";
import { Link as RouterLink } from "react-router";

export function PageCrumbs({ def, listPath, current }: { def: ResourceDef; listPath: string; current: string }) {
  return (
    <Breadcrumbs aria-label="Breadcrumb">
      <Link component={RouterLink} to={listPath} underline="hover" color="inherit">
        {def.plural}
      </Link>
      <Typography color="text.primary" noWrap sx={{ maxWidth: 360 }}>
        {current}
      </Typography>
    </Breadcrumbs>
  );
}

// A link to a record that no longer exists (deleted, or another workspace's id): say so and offer the list.
export function RecordMissing({ def, listPath }: { def: ResourceDef; listPath: string }) {
  return (
    <Card variant="outlined" sx={{ maxWidth: 560 }}>
      <CardContent>
        <Typography variant="h6" component="h1" gutterBottom>
          This {def.title.toLowerCase()} does not exist
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          It may have been deleted, or the link is wrong.
        </Typography>
        <Button variant="contained" component={RouterLink} to={listPath}>
          All {def.plural.toLowerCase()}
        </Button>
      </CardContent>
    </Card>
  );
}
