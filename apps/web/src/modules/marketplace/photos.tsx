import AddPhotoAlternateOutlined from "@mui/icons-material/AddPhotoAlternateOutlined";
import ArrowBackOutlined from "@mui/icons-material/ArrowBackOutlined";
import ArrowForwardOutlined from "@mui/icons-material/ArrowForwardOutlined";
import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { STORAGE_ACTIONS } from "@workmetrics/domain";
import {
  LISTING_PHOTO_TYPES,
  type ListingPhotoView,
  MAX_LISTING_PHOTO_BYTES,
  MAX_LISTING_PHOTOS,
  type MarketplaceListingView,
} from "@workmetrics/domain/commands/marketplace";
import { useRef, useState } from "react";
import toast from "react-hot-toast";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { useDecision } from "../../platform/resource/access.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { compressPhoto } from "../../roleapps/driver/proof.ts";
import { documentFolder } from "../documents/FilesPanel.tsx";
import { listTree } from "../files/files-api.ts";
import { useMarketplaceCommand } from "./api.ts";
import { why } from "./ui.tsx";

// Issue 23: a listing's own photos. The seller adds up to six (compressed in the browser to a JPEG of at most
// 1600 px, as the driver's proof), or takes pictures already kept in Files under the product's folder; reorders and
// removes them. Buyers see the first on the listing's card and all of them in the listing's gallery, each read
// through marketplace_listing_photo (the seller's files are never theirs to open).

// One photo's bytes as a data URL (a photo never changes under its id, so it is read once).
export function usePhoto(listingId: number, photo: ListingPhotoView | undefined) {
  const data = useDataProvider();
  return useQuery({
    // Outside the ["marketplace"] key the commands invalidate: a photo never changes under its id.
    queryKey: ["marketplace-photo", listingId, photo?.id],
    queryFn: ({ signal }) =>
      data.command(
        "marketplace_listing_photo",
        { marketplace_product_id: listingId, photo_id: photo?.id as string },
        signal,
      ),
    enabled: Boolean(photo),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 10 * 60_000,
    retry: retryUnlessClientError,
  });
}

export function ListingPhoto(props: {
  listingId: number;
  photo: ListingPhotoView | undefined;
  height: number | string;
  alt: string;
}) {
  const { listingId, photo, height, alt } = props;
  const q = usePhoto(listingId, photo);
  if (!photo) return null;
  if (!q.data) {
    return <Skeleton variant="rectangular" height={height} animation={q.isError ? false : "pulse"} />;
  }
  return (
    <Box
      component="img"
      src={q.data.data_url}
      alt={alt}
      data-photo={photo.id}
      sx={{ display: "block", width: "100%", height, objectFit: "contain", bgcolor: "background.default" }}
    />
  );
}

// The buyer's gallery: one photo large, the others as thumbnails to choose.
export function GalleryDialog({ listing, onClose }: { listing: MarketplaceListingView | null; onClose: () => void }) {
  const [at, setAt] = useState(0);
  const photos = listing?.photos ?? [];
  const shown = photos[Math.min(at, Math.max(0, photos.length - 1))];
  return (
    <Dialog
      open={listing != null}
      onClose={() => {
        setAt(0);
        onClose();
      }}
      fullWidth
      maxWidth="md"
      aria-labelledby="gallery-title"
    >
      <DialogTitle id="gallery-title">{listing?.title}</DialogTitle>
      <DialogContent>
        {listing && shown && (
          <Stack spacing={1}>
            <ListingPhoto listingId={Number(listing.id)} photo={shown} height="min(60vh, 480px)" alt={shown.name} />
            <Stack direction="row" spacing={1} sx={{ overflowX: "auto" }} role="list" aria-label="Photos">
              {photos.map((p, i) => (
                <Box
                  key={p.id}
                  role="listitem"
                  component="button"
                  type="button"
                  aria-label={`Photo ${i + 1} of ${photos.length}`}
                  aria-current={p.id === shown.id}
                  onClick={() => setAt(i)}
                  sx={{
                    p: 0,
                    width: 72,
                    flex: "0 0 72px",
                    border: 2,
                    borderColor: p.id === shown.id ? "primary.main" : "divider",
                    borderRadius: 1,
                    overflow: "hidden",
                    cursor: "pointer",
                    bgcolor: "transparent",
                  }}
                >
                  <ListingPhoto listingId={Number(listing.id)} photo={p} height={56} alt="" />
                </Box>
              ))}
            </Stack>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button
          onClick={() => {
            setAt(0);
            onClose();
          }}
        >
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}

const ACCEPT = LISTING_PHOTO_TYPES.join(",");
const IMAGE_NAME = /\.(jpe?g|png|webp)$/i;

// The seller's photos of one (saved) listing: add, reorder, remove, or take from the product's files.
export function PhotoManager({ listing }: { listing: MarketplaceListingView }) {
  const id = Number(listing.id);
  const [photos, setPhotos] = useState(listing.photos);
  const add = useMarketplaceCommand("marketplace_listing_photo_add");
  const remove = useMarketplaceCommand("marketplace_listing_photo_remove");
  const order = useMarketplaceCommand("marketplace_listing_photo_order");
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const room = MAX_LISTING_PHOTOS - photos.length;
  const { client } = useViewer();
  const mayReadFiles = useDecision(STORAGE_ACTIONS["file.read"]).allowed;
  const folder = documentFolder("product", Number(listing.product_id));
  const kept = useQuery({
    queryKey: ["marketplace", "product-files", folder],
    queryFn: async () =>
      client ? (await listTree(client, folder).catch(() => [] as string[])).filter((p) => IMAGE_NAME.test(p)) : [],
    enabled: Boolean(client) && mayReadFiles,
  });
  const [picked, setPicked] = useState("");

  const upload = async (chosen: File[]) => {
    if (chosen.length > room)
      toast.error(`A listing has at most ${MAX_LISTING_PHOTOS} photos: the first ${room} are added`);
    setBusy(true);
    try {
      for (const file of chosen.slice(0, Math.max(0, room))) {
        if (!(LISTING_PHOTO_TYPES as readonly string[]).includes(file.type)) {
          toast.error(`${file.name}: a listing photo must be a JPEG, PNG or WebP image`);
          continue;
        }
        try {
          const data = await compressPhoto(file);
          if ((data.length * 3) / 4 > MAX_LISTING_PHOTO_BYTES) {
            toast.error(`${file.name} is larger than 5 MB even compressed`);
            continue;
          }
          const name = `${file.name.replace(/\.[^.]+$/, "")}.jpg`;
          const saved = await add.mutateAsync({ marketplace_product_id: id, name, data });
          setPhotos(saved.photos);
        } catch (err) {
          toast.error(`${file.name}: ${why(err)}`);
        }
      }
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  };
  const run = async (fn: () => Promise<MarketplaceListingView>) => {
    setBusy(true);
    try {
      setPhotos((await fn()).photos);
    } catch (err) {
      toast.error(why(err));
    } finally {
      setBusy(false);
    }
  };
  const move = (i: number, by: number) => {
    const ids = photos.map((p) => p.id);
    [ids[i], ids[i + by]] = [ids[i + by], ids[i]];
    void run(() => order.mutateAsync({ marketplace_product_id: id, photo_ids: ids }));
  };

  return (
    <Stack spacing={1} component="section" aria-label="Photos">
      <Typography variant="subtitle2">
        Photos ({photos.length} of {MAX_LISTING_PHOTOS}) — the first is the one buyers see on the card
      </Typography>
      {photos.length > 0 && (
        <Box sx={{ display: "grid", gap: 1, gridTemplateColumns: "repeat(auto-fill, minmax(110px, 1fr))" }}>
          {photos.map((p, i) => (
            <Box key={p.id} sx={{ border: 1, borderColor: "divider", borderRadius: 1, overflow: "hidden" }}>
              <ListingPhoto listingId={id} photo={p} height={80} alt={p.name} />
              <Stack direction="row" sx={{ justifyContent: "space-between" }}>
                <IconButton
                  size="small"
                  aria-label={`Move ${p.name} earlier`}
                  disabled={busy || i === 0}
                  onClick={() => move(i, -1)}
                >
                  <ArrowBackOutlined fontSize="small" />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={`Remove ${p.name}`}
                  disabled={busy}
                  onClick={() => run(() => remove.mutateAsync({ marketplace_product_id: id, photo_id: p.id }))}
                >
                  <DeleteOutlined fontSize="small" />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={`Move ${p.name} later`}
                  disabled={busy || i === photos.length - 1}
                  onClick={() => move(i, 1)}
                >
                  <ArrowForwardOutlined fontSize="small" />
                </IconButton>
              </Stack>
            </Box>
          ))}
        </Box>
      )}
      <Stack direction="row" sx={{ gap: 1, flexWrap: "wrap", alignItems: "center" }}>
        <Button
          size="small"
          startIcon={<AddPhotoAlternateOutlined />}
          disabled={busy || room <= 0}
          onClick={() => input.current?.click()}
        >
          {busy ? "Working…" : "Add photos"}
        </Button>
        <input
          ref={input}
          type="file"
          accept={ACCEPT}
          multiple
          hidden
          aria-label="Add listing photos"
          data-testid="listing-photo-input"
          onChange={(e) => void upload(Array.from(e.target.files ?? []))}
        />
        {mayReadFiles && (kept.data?.length ?? 0) > 0 && (
          <>
            <TextField
              select
              size="small"
              label="From the product's files"
              value={picked}
              onChange={(e) => setPicked(e.target.value)}
              sx={{ minWidth: 200 }}
            >
              {(kept.data ?? []).map((p) => (
                <MenuItem key={p} value={p}>
                  {p.split("/").pop()}
                </MenuItem>
              ))}
            </TextField>
            <Button
              size="small"
              disabled={!picked || busy || room <= 0}
              onClick={() =>
                void run(() => add.mutateAsync({ marketplace_product_id: id, file_path: picked })).then(() =>
                  setPicked(""),
                )
              }
            >
              Use
            </Button>
          </>
        )}
      </Stack>
      <Typography variant="caption" color="text.secondary">
        JPEG, PNG or WebP, at most 5 MB each; photos are made smaller before they are sent. They count in your storage.
      </Typography>
    </Stack>
  );
}
