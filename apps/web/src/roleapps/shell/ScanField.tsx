import PhotoCameraOutlined from "@mui/icons-material/PhotoCameraOutlined";
import SearchOutlined from "@mui/icons-material/SearchOutlined";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { useSession } from "../../app/session/SessionProvider.tsx";

const CameraScanner = lazy(() => import("./CameraScanner.tsx"));

// A product as the scan bar finds it.
export type ScannedProduct = {
  id: number;
  sku: string;
  name: string;
  barcode: string | null;
  unit: string;
  price: string;
  tax_code: string;
  is_stock_tracked: boolean;
};

export const PRODUCT_COLUMNS = "id,sku,name,barcode,unit,price,tax_code,is_stock_tracked";

// Exact first (barcode, then SKU), then names and SKUs that contain the words; over a product list already on the
// device (the POS catalogue, offline) the same rule.
export function matchProducts<P extends Pick<ScannedProduct, "sku" | "name" | "barcode">>(
  products: P[],
  text: string,
  limit = 8,
): P[] {
  const q = text.trim().toLowerCase();
  if (!q) return [];
  const exact = products.filter((p) => p.barcode?.toLowerCase() === q || p.sku.toLowerCase() === q);
  if (exact.length) return exact.slice(0, limit);
  const words = q.split(/\s+/);
  return products
    .filter((p) => words.every((w) => p.name.toLowerCase().includes(w) || p.sku.toLowerCase().includes(w)))
    .slice(0, limit);
}

const escapeLike = (s: string) => s.replace(/[%_*,()"\\]/g, " ").trim();

type Props = {
  onProduct(product: ScannedProduct): void;
  placeholder?: string;
  // Searches these (already on the device) instead of the server: the POS catalogue works offline.
  catalogue?: ScannedProduct[];
  autoFocus?: boolean;
  label?: string;
};

// The scan / search bar wherever a product is chosen in the role apps (issue 22 "Barcodes"): a keyboard-wedge scan
// typed into it (digits then Enter) picks the product at once; typing shows matches by barcode, SKU or name; the
// camera button reads a barcode with the phone's camera (BarcodeDetector, or its WASM fallback).
export function ScanField({ onProduct, placeholder = "Scan or search products", catalogue, autoFocus, label }: Props) {
  const { client } = useSession();
  const [text, setText] = useState("");
  const [hits, setHits] = useState<ScannedProduct[]>([]);
  const [loading, setLoading] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [camera, setCamera] = useState(false);
  const listId = useId();
  const seq = useRef(0);

  async function search(q: string, exactOnly: boolean): Promise<ScannedProduct[]> {
    if (catalogue) {
      const found = matchProducts(catalogue, q);
      return exactOnly ? found.filter((p) => p.barcode === q.trim() || p.sku === q.trim()) : found;
    }
    if (!client) return [];
    const v = q.trim();
    const like = escapeLike(v);
    const exact = await client
      .from("product")
      .select(PRODUCT_COLUMNS)
      .eq("active", true)
      .or(`barcode.eq."${v.replace(/"/g, "")}",sku.eq."${v.replace(/"/g, "")}"`)
      .limit(8);
    if (exact.error) throw new Error(exact.error.message);
    if (exact.data.length || exactOnly || !like) return exact.data as unknown as ScannedProduct[];
    const res = await client
      .from("product")
      .select(PRODUCT_COLUMNS)
      .eq("active", true)
      .or(`name.ilike.*${like}*,sku.ilike.*${like}*`)
      .order("name")
      .limit(8);
    if (res.error) throw new Error(res.error.message);
    return res.data as unknown as ScannedProduct[];
  }

  const searchRef = useRef(search);
  searchRef.current = search;

  // Typing: matches after a short pause.
  useEffect(() => {
    const q = text.trim();
    if (q.length < 2) {
      setHits([]);
      return;
    }
    const mine = ++seq.current;
    const t = setTimeout(() => {
      setLoading(true);
      searchRef
        .current(q, false)
        .then((found) => {
          if (mine !== seq.current) return;
          setHits(found);
          setMessage(found.length ? null : `No product matches “${q}”.`);
        })
        .catch((err: Error) => mine === seq.current && setMessage(err.message))
        .finally(() => mine === seq.current && setLoading(false));
    }, 200);
    return () => clearTimeout(t);
  }, [text]);

  function pick(p: ScannedProduct) {
    seq.current++;
    setText("");
    setHits([]);
    setMessage(null);
    onProduct(p);
  }

  // A code (scanned or typed, then Enter): the one product with that barcode or SKU, else the only match.
  async function submit(code: string) {
    const q = code.trim();
    if (!q) return;
    seq.current++;
    setLoading(true);
    try {
      const exact = await search(q, true);
      if (exact.length === 1) return pick(exact[0]);
      const found = exact.length ? exact : await search(q, false);
      if (found.length === 1) return pick(found[0]);
      setHits(found);
      setMessage(found.length ? "Several products match: choose one." : `No product has the code or name “${q}”.`);
    } catch (err) {
      setMessage((err as Error).message);
    } finally {
      setLoading(false);
    }
  }

  return (
    <Box sx={{ position: "relative" }}>
      <TextField
        fullWidth
        value={text}
        label={label}
        placeholder={placeholder}
        autoFocus={autoFocus}
        autoComplete="off"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            void submit(text);
          }
          if (e.key === "Escape") setHits([]);
        }}
        slotProps={{
          htmlInput: {
            "aria-label": label ?? placeholder,
            "aria-controls": hits.length ? listId : undefined,
            inputMode: "search",
            enterKeyHint: "search",
          },
          input: {
            sx: { minHeight: 52 },
            startAdornment: (
              <InputAdornment position="start">
                {loading ? <CircularProgress size={20} /> : <SearchOutlined />}
              </InputAdornment>
            ),
            endAdornment: (
              <InputAdornment position="end">
                <IconButton
                  aria-label="Scan with the camera"
                  title="Scan with the camera"
                  onClick={() => setCamera(true)}
                  sx={{ width: 48, height: 48 }}
                >
                  <PhotoCameraOutlined />
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
      {message && !hits.length && (
        <Typography role="status" variant="body2" color="text.secondary" sx={{ mt: 0.5, px: 1 }}>
          {message}
        </Typography>
      )}
      {hits.length > 0 && (
        <Paper
          elevation={6}
          sx={{ position: "absolute", zIndex: 20, left: 0, right: 0, mt: 0.5, maxHeight: 360, overflow: "auto" }}
        >
          <List id={listId} dense aria-label="Matching products">
            {hits.map((p) => (
              <ListItemButton key={p.id} onClick={() => pick(p)} sx={{ minHeight: 52 }}>
                <ListItemText primary={p.name} secondary={[p.sku, p.barcode].filter(Boolean).join(" · ")} />
              </ListItemButton>
            ))}
          </List>
        </Paper>
      )}
      {camera && (
        <Suspense fallback={null}>
          <CameraScanner
            onClose={() => setCamera(false)}
            onCode={(code) => {
              setCamera(false);
              setText(code);
              void submit(code);
            }}
          />
        </Suspense>
      )}
    </Box>
  );
}
