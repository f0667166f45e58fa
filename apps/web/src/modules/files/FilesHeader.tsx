import CloudUploadOutlined from "@mui/icons-material/CloudUploadOutlined";
import CreateNewFolderOutlined from "@mui/icons-material/CreateNewFolderOutlined";
import Box from "@mui/material/Box";
import Breadcrumbs from "@mui/material/Breadcrumbs";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useRef } from "react";

// Title, where we are (breadcrumbs back up the folders), and the page's two actions for those who may upload.
export function FilesHeader(props: {
  folder: string;
  ready: boolean;
  canUpload: boolean;
  onOpen(path: string): void;
  onNewFolder(): void;
  onFiles(files: FileList): void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const crumbs = props.folder ? props.folder.split("/") : [];
  return (
    <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="h4" component="h1">
          My files
        </Typography>
        <Breadcrumbs aria-label="Folder" sx={{ mt: 0.5 }}>
          {crumbs.length === 0 ? (
            <Typography color="text.secondary" aria-current="page">
              My files
            </Typography>
          ) : (
            <Link component="button" type="button" underline="hover" color="inherit" onClick={() => props.onOpen("")}>
              My files
            </Link>
          )}
          {crumbs.map((c, i) => {
            const path = crumbs.slice(0, i + 1).join("/");
            return i === crumbs.length - 1 ? (
              <Typography key={path} color="text.primary" aria-current="page">
                {c}
              </Typography>
            ) : (
              <Link
                key={path}
                component="button"
                type="button"
                underline="hover"
                color="inherit"
                onClick={() => props.onOpen(path)}
              >
                {c}
              </Link>
            );
          })}
        </Breadcrumbs>
      </Box>
      {props.canUpload && (
        <>
          <Stack direction="row" spacing={1}>
            <Button
              variant="outlined"
              startIcon={<CreateNewFolderOutlined />}
              onClick={props.onNewFolder}
              disabled={!props.ready}
            >
              New folder
            </Button>
            <Button
              variant="contained"
              startIcon={<CloudUploadOutlined />}
              onClick={() => input.current?.click()}
              disabled={!props.ready}
            >
              Upload
            </Button>
          </Stack>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            aria-label="Choose files to upload"
            onChange={(e) => {
              if (e.target.files) props.onFiles(e.target.files);
              e.target.value = "";
            }}
          />
        </>
      )}
    </Stack>
  );
}
