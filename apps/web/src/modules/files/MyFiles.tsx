import CloudUploadOutlined from "@mui/icons-material/CloudUploadOutlined";
import FolderOpenOutlined from "@mui/icons-material/FolderOpenOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { decide, formatBytes, MAX_UPLOAD_BYTES, objectNameProblem, STORAGE_ACTIONS } from "@workmetrics/domain";
import { type DragEvent, useCallback, useMemo, useState } from "react";
import toast from "react-hot-toast";
import { useSearchParams } from "react-router";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { useRightAside } from "../../app/shell/RightAside.tsx";
import { useViewer } from "../../platform/session/viewer.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { EntryDialogs, type Pending } from "./EntryDialogs.tsx";
import { FilePreview } from "./FilePreview.tsx";
import { FilesHeader } from "./FilesHeader.tsx";
import { type Action, FileTable } from "./FileTable.tsx";
import { fileRights, offers } from "./file-rights.ts";
import {
  createFolder,
  type Entry,
  ensureBucket,
  join,
  listPage,
  messageOf,
  PAGE_SIZE,
  signedUrl,
} from "./files-api.ts";
import { NameDialog } from "./NameDialog.tsx";
import { UploadList } from "./UploadList.tsx";
import { useUploads } from "./useUploads.ts";

// A folder path from the URL (?path=a/b); anything that is not a valid path falls back to the top level.
const folderFrom = (raw: string | null) => {
  const path = (raw ?? "").replace(/^\/+|\/+$/g, "");
  return path && !objectNameProblem(path) ? path : "";
};

// /dashboard/my-files (issue 5 item 6): the workspace's files in its default bucket, through supabase-js.
export default function MyFiles() {
  usePageTitle("My files");
  const { client, session } = useSession();
  const scope = session?.user.id ?? "";
  const aside = useRightAside();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const folder = folderFrom(params.get("path"));
  const [dragging, setDragging] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [newFolder, setNewFolder] = useState(false);
  const viewer = useViewer();
  const rights = fileRights(viewer.member);
  const reading = decide(viewer.member, STORAGE_ACTIONS["file.read"]);

  const bucket = useQuery({
    queryKey: ["files", scope, "bucket"],
    queryFn: () => (client ? ensureBucket(client.storage).then(() => true) : Promise.reject(new Error("Not ready"))),
    enabled: Boolean(client && scope && rights.read),
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
  const list = useInfiniteQuery({
    queryKey: ["files", scope, "list", folder],
    queryFn: ({ pageParam }) => (client ? listPage(client, folder, pageParam) : Promise.reject(new Error("Not ready"))),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.more ? pages.length * PAGE_SIZE : undefined),
    enabled: bucket.isSuccess,
  });
  const entries = useMemo(() => {
    const all = list.data?.pages.flatMap((p) => p.entries) ?? [];
    return [...all.filter((e) => e.kind === "folder"), ...all.filter((e) => e.kind === "file")];
  }, [list.data]);

  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: ["files", scope] }),
    [queryClient, scope],
  );
  const { uploads, start, cancel } = useUploads(session?.access_token, refresh);
  const open = (path: string) => setParams(path ? { path } : {});

  async function download(entry: Entry) {
    if (!client) return;
    try {
      window.location.assign(await signedUrl(client, entry.path, 60, true));
    } catch (err) {
      toast.error(messageOf(err, "Could not download that file"));
    }
  }

  function act(action: Action, entry: Entry) {
    if (!client) return;
    if (action === "download") return void download(entry);
    if (action === "preview" && entry.kind === "file") {
      return aside.open({
        title: entry.name,
        content: (
          <FilePreview
            client={client}
            scope={scope}
            entry={entry}
            onDownload={() => download(entry)}
            onShare={() => setPending({ action: "share", entry })}
          />
        ),
      });
    }
    if (action !== "preview") setPending({ action, entry });
  }

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    if (rights.upload && e.dataTransfer.files.length > 0) start(e.dataTransfer.files, folder);
  }

  const crumbs = folder ? folder.split("/") : [];
  const failed = bucket.error ?? list.error;

  return (
    <Stack spacing={2}>
      <FilesHeader
        folder={folder}
        ready={bucket.isSuccess}
        canUpload={rights.upload}
        onOpen={open}
        onNewFolder={() => setNewFolder(true)}
        onFiles={(chosen) => start(chosen, folder)}
      />

      <UploadList uploads={uploads} onCancel={cancel} />

      <Card
        variant="outlined"
        onDragOver={(e) => {
          e.preventDefault();
          if (bucket.isSuccess && rights.upload) setDragging(true);
        }}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
        data-testid="drop-zone"
        sx={{
          position: "relative",
          minHeight: dragging ? 200 : undefined,
          borderStyle: dragging ? "dashed" : "solid",
          borderColor: dragging ? "primary.main" : "divider",
          borderWidth: dragging ? 2 : 1,
        }}
      >
        {viewer.known && !reading.allowed ? (
          <Alert severity="info" sx={{ m: 2 }}>
            {reading.message}. Files reach you as share links: ask a colleague to send you one.
          </Alert>
        ) : failed ? (
          <Alert
            severity="error"
            sx={{ m: 2 }}
            action={
              <Button color="inherit" size="small" onClick={() => (bucket.isError ? bucket.refetch() : list.refetch())}>
                Retry
              </Button>
            }
          >
            {messageOf(failed, "Could not load your files")}
          </Alert>
        ) : list.isPending ? (
          <Stack spacing={1} sx={{ p: 2 }} aria-label="Loading files">
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} variant="rounded" height={36} />
            ))}
          </Stack>
        ) : entries.length === 0 ? (
          <Stack spacing={1} sx={{ alignItems: "center", textAlign: "center", py: 8, px: 2 }}>
            <FolderOpenOutlined sx={{ fontSize: 56, color: "text.disabled" }} />
            <Typography variant="h6" component="p">
              {folder ? "This folder is empty" : "No files yet"}
            </Typography>
            {rights.upload && (
              <Typography color="text.secondary">
                Drop files here or choose Upload. Files up to {formatBytes(MAX_UPLOAD_BYTES)} each.
              </Typography>
            )}
          </Stack>
        ) : (
          <>
            <FileTable
              entries={entries}
              offered={(a) => offers(rights, a)}
              onOpen={(e) => (e.kind === "folder" ? open(e.path) : act("preview", e))}
              onAction={act}
            />
            {list.hasNextPage && (
              <Box sx={{ p: 1, textAlign: "center" }}>
                <Button onClick={() => list.fetchNextPage()} loading={list.isFetchingNextPage}>
                  Show more
                </Button>
              </Box>
            )}
          </>
        )}
        {dragging && (
          <Stack
            sx={{
              position: "absolute",
              inset: 0,
              alignItems: "center",
              justifyContent: "center",
              gap: 1,
              bgcolor: "background.paper",
              color: "primary.main",
              pointerEvents: "none",
            }}
          >
            <CloudUploadOutlined sx={{ fontSize: 48 }} />
            <Typography variant="h6">Drop to upload to {crumbs.at(-1) ?? "My files"}</Typography>
          </Stack>
        )}
      </Card>

      {newFolder && client && (
        <NameDialog
          title="New folder"
          label="Folder name"
          initial=""
          confirmLabel="Create"
          onCancel={() => setNewFolder(false)}
          onSubmit={async (name) => {
            await createFolder(client, join(folder, name));
            setNewFolder(false);
            await refresh();
            open(join(folder, name));
          }}
        />
      )}
      {pending && client && (
        <EntryDialogs
          client={client}
          scope={scope}
          pending={pending}
          onClose={() => setPending(null)}
          onChanged={async (message) => {
            setPending(null);
            aside.close();
            toast.success(message);
            await refresh();
          }}
        />
      )}
    </Stack>
  );
}
