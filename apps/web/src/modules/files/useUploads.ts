import { objectNameProblem } from "@workmetrics/domain";
import { useCallback, useRef, useState } from "react";
import toast from "react-hot-toast";
import { join, messageOf, type UploadHandle, uploadWithProgress } from "./files-api.ts";

export type Upload = { id: number; name: string; progress: number };

// Uploads run side by side, each with its own progress; the list refreshes as each one lands.
export function useUploads(token: string | undefined, onUploaded: () => void) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const handles = useRef(new Map<number, UploadHandle>());
  const nextId = useRef(1);

  const start = useCallback(
    (list: FileList | File[], prefix: string) => {
      if (!token) return;
      for (const file of Array.from(list)) {
        const path = join(prefix, file.name);
        const problem = objectNameProblem(path);
        if (problem) {
          toast.error(`${file.name}: ${problem}`);
          continue;
        }
        const id = nextId.current++;
        setUploads((u) => [...u, { id, name: file.name, progress: 0 }]);
        const handle = uploadWithProgress(token, path, file, (progress) =>
          setUploads((u) => u.map((x) => (x.id === id ? { ...x, progress } : x))),
        );
        handles.current.set(id, handle);
        handle.done
          .then(
            () => {
              toast.success(`Uploaded ${file.name}`);
              onUploaded();
            },
            (err: unknown) => {
              const message = messageOf(err, "The upload failed");
              if (message !== "Upload cancelled") toast.error(`${file.name}: ${message}`);
            },
          )
          .finally(() => {
            handles.current.delete(id);
            setUploads((u) => u.filter((x) => x.id !== id));
          });
      }
    },
    [token, onUploaded],
  );

  const cancel = useCallback((id: number) => handles.current.get(id)?.cancel(), []);
  return { uploads, start, cancel };
}
