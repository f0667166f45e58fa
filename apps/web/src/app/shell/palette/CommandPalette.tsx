import AddCircleOutline from "@mui/icons-material/AddCircleOutlineOutlined";
import BusinessOutlined from "@mui/icons-material/BusinessOutlined";
import HistoryOutlined from "@mui/icons-material/HistoryOutlined";
import Inventory2Outlined from "@mui/icons-material/Inventory2Outlined";
import LockOutlined from "@mui/icons-material/LockOutlined";
import SearchIcon from "@mui/icons-material/Search";
import Box from "@mui/material/Box";
import Dialog from "@mui/material/Dialog";
import InputBase from "@mui/material/InputBase";
import LinearProgress from "@mui/material/LinearProgress";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import { useTheme } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useQuery } from "@tanstack/react-query";
import { decide, decideResource, type Member } from "@workmetrics/domain";
import { CATALOG } from "@workmetrics/domain/resources/catalog";
import { type ReactNode, use, useEffect, useId, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { documentExtensionsLoaded } from "../../../modules/documents/extensions.ts";
import { DOCUMENT_TYPES } from "../../../modules/documents/types.ts";
import { escapeLike } from "../../../platform/data-access/filters.ts";
import { type DataProvider, useDataProviderIfReady } from "../../../platform/data-access/provider.ts";
import { useMember } from "../../../platform/resource/access.ts";
import { readableBy, resourceByName } from "../../../platform/resource/definition.ts";
import { MODULES } from "../../modules.ts";
import { offered, type RecentEntry, readRecent } from "../nav.ts";
import { flatten, moveActive, type PaletteGroup, type PaletteItem, rankItems } from "./ranking.ts";

const PER_GROUP: Partial<Record<PaletteGroup, number>> = { Pages: 8, Create: 5, Recent: 10, Companies: 5, Products: 5 };
const SEARCH_LIMIT = 5;
const HIDDEN = {
  position: "absolute",
  width: 1,
  height: 1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
} as const;
const DEBOUNCE_MS = 200;

const HEADING: Record<PaletteGroup, string> = {
  Pages: "Pages",
  Create: "Create",
  Recent: "Recently opened",
  Companies: "Companies",
  Products: "Products",
};

// The pages the navigation offers (the sidebar's own rule: locked ones locked, refused ones absent).
function pageItems(who: Member, base: string): PaletteItem[] {
  return offered(who).map(({ m, lock }) => ({
    key: `page:${m.path}`,
    group: "Pages",
    title: m.title,
    hint: lock ?? m.section,
    keywords: [m.section],
    to: m.path ? `${base}/${m.path}` : base,
    lock,
  }));
}

// "New …" for the document types the member may create there and then (the documents list's own rule); a type
// made only from another document (a progressive claim from its contract) is not offered.
function createItems(who: Member, base: string): PaletteItem[] {
  return DOCUMENT_TYPES.flatMap((t): PaletteItem[] => {
    const m = MODULES.find((x) => x.resource?.name === t.type);
    if (!m || t.convertOnly || !m.access(who).allowed) return [];
    const create = decide(who, {
      audience: "member",
      permission: `${t.type}.create`,
      feature: t.machine.feature,
      subject: t.machine.plural,
      does: `create ${t.machine.plural.toLowerCase()}`,
    });
    if (!create.allowed) return [];
    return [
      {
        key: `new:${t.type}`,
        group: "Create",
        title: `New ${t.machine.title.toLowerCase()}`,
        hint: m.section,
        keywords: [t.machine.plural],
        to: `${base}/${m.path}/new`,
      },
    ];
  });
}

// The recent record pages with their numbers or names, read as the member reads them now: one that was deleted, or
// that they may no longer read, drops out.
function useRecentItems(open: boolean, recentKey: string, base: string, who: Member): PaletteItem[] {
  const data = useDataProviderIfReady();
  const [recent, setRecent] = useState<RecentEntry[]>([]);
  useEffect(() => {
    if (open) setRecent(readRecent(recentKey));
  }, [open, recentKey]);
  const q = useQuery({
    queryKey: ["palette", "recent", recent.map((r) => `${r.resource}:${r.id}`).join(",")],
    queryFn: () => labelRecent(data as DataProvider, recent, who),
    enabled: Boolean(data) && recent.length > 0,
    staleTime: 10_000,
  });
  return useMemo(
    () =>
      (q.data ?? []).map(({ entry, title, label }) => ({
        key: `recent:${entry.resource}:${entry.id}`,
        group: "Recent" as const,
        title: label ? `${title} ${label}` : `${title} #${entry.id}`,
        to: `${base}/${entry.path}`,
      })),
    [q.data, base],
  );
}

async function labelRecent(data: DataProvider, recent: readonly RecentEntry[], who: Member) {
  const reads = readableBy(who);
  const byResource = new Map<string, RecentEntry[]>();
  for (const r of recent) if (reads(r.resource)) byResource.set(r.resource, [...(byResource.get(r.resource) ?? []), r]);
  const labels = new Map<string, string>();
  await Promise.all(
    [...byResource].map(async ([resource, entries]) => {
      const display = resourceByName(resource).display;
      const rows = await data
        .getMany(
          resource,
          entries.map((e) => e.id),
          display && display !== "id" ? `id,${display}` : "id",
        )
        .catch(() => null);
      if (!rows) {
        for (const e of entries) labels.set(`${resource}:${e.id}`, ""); // unreadable now: shown by its number only
        return;
      }
      for (const row of rows) labels.set(`${resource}:${row.id}`, display ? String(row[display] ?? "") : "");
    }),
  );
  return recent.flatMap((entry) => {
    const label = labels.get(`${entry.resource}:${entry.id}`);
    if (label === undefined) return [];
    return [{ entry, title: resourceByName(entry.resource).title, label }];
  });
}

function useDebounced(value: string, ms: number): string {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

// Companies and products whose name holds the term (a /rest/v1 `name=ilike.*term*`, 5 each), asked only of those
// who may read them: a refusal is not shown as "nothing found".
function useNameSearch(resource: "company" | "product", term: string, who: Member, base: string) {
  const data = useDataProviderIfReady();
  const reads = decideResource(who, CATALOG[resource], "read").allowed;
  const route = CATALOG[resource].route;
  const t = term.trim();
  const q = useQuery({
    queryKey: ["palette", resource, t],
    queryFn: ({ signal }) =>
      (data as DataProvider).getList(resource, {
        select: resource === "product" ? "id,name,sku" : "id,name",
        filters: [{ column: "name", op: "ilike", value: `%${escapeLike(t)}%` }],
        order: [{ column: "name", ascending: true }],
        range: [0, SEARCH_LIMIT - 1],
        signal,
      }),
    enabled: reads && Boolean(data) && t.length > 0,
    staleTime: 30_000,
  });
  const group: PaletteGroup = resource === "company" ? "Companies" : "Products";
  const items = useMemo(
    (): PaletteItem[] =>
      (q.data?.data ?? []).map((row) => ({
        key: `${resource}:${row.id}`,
        group,
        title: String(row.name ?? ""),
        hint: resource === "product" && row.sku ? String(row.sku) : undefined,
        matched: true, // the server matched it: shown whatever the palette's own scoring of the name
        to: `${base}/${route}/${row.id}`,
      })),
    [q.data, resource, group, base, route],
  );
  return { items, loading: reads && t.length > 0 && q.isFetching, error: reads ? q.error : null };
}

const ICON: Record<PaletteGroup, ReactNode> = {
  Pages: null,
  Create: <AddCircleOutline fontSize="small" />,
  Recent: <HistoryOutlined fontSize="small" />,
  Companies: <BusinessOutlined fontSize="small" />,
  Products: <Inventory2Outlined fontSize="small" />,
};

export default function CommandPalette({
  open,
  onClose,
  base,
  recentKey,
}: {
  open: boolean;
  onClose: () => void;
  base: string;
  recentKey: string;
}) {
  use(documentExtensionsLoaded()); // which document types are made only by conversion
  const who = useMember();
  const navigate = useNavigate();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down("sm"));
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLDivElement>(null);
  const id = useId();
  const term = useDebounced(query, DEBOUNCE_MS);
  const settling = query.trim() !== term.trim();

  useEffect(() => {
    if (open) {
      setQuery("");
      setActive(0);
    }
  }, [open]);

  const pages = useMemo(() => pageItems(who, base), [who, base]);
  const creates = useMemo(() => createItems(who, base), [who, base]);
  const recent = useRecentItems(open, recentKey, base, who);
  const companies = useNameSearch("company", term, who, base);
  const products = useNameSearch("product", term, who, base);

  const groups = useMemo(
    () => rankItems([...pages, ...creates, ...recent, ...companies.items, ...products.items], query, PER_GROUP),
    [pages, creates, recent, companies.items, products.items, query],
  );
  const flat = useMemo(() => flatten(groups), [groups]);
  const loading = settling || companies.loading || products.loading;
  const searchError = companies.error ?? products.error;

  useEffect(() => setActive((a) => (flat.length === 0 ? -1 : Math.min(Math.max(a, 0), flat.length - 1))), [flat]);
  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: "nearest" });
  }, [active]);

  const go = (item: PaletteItem | undefined) => {
    if (!item) return;
    onClose();
    navigate(item.to);
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setActive((a) => moveActive(a, flat.length, e.key === "ArrowDown" ? 1 : -1));
    } else if (e.key === "Enter") {
      e.preventDefault();
      go(flat[active]);
    }
  };

  let index = 0;
  const optionId = (i: number) => `${id}-option-${i}`;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      fullScreen={phone}
      aria-labelledby={`${id}-title`}
      slotProps={{ paper: { sx: { alignSelf: { sm: "flex-start" }, mt: { sm: 10 }, overflow: "hidden" } } }}
    >
      <Typography id={`${id}-title`} component="h2" sx={HIDDEN}>
        Search pages, documents, companies and products
      </Typography>
      <Box
        sx={{ display: "flex", alignItems: "center", gap: 1, px: 2, py: 1, borderBottom: 1, borderColor: "divider" }}
      >
        <SearchIcon color="action" />
        <InputBase
          autoFocus
          fullWidth
          placeholder="Search pages, documents, companies, products…"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          inputProps={{
            "aria-label": "Quick search",
            role: "combobox",
            "aria-expanded": true,
            "aria-controls": `${id}-list`,
            "aria-autocomplete": "list",
            "aria-activedescendant": active >= 0 && flat[active] ? optionId(active) : undefined,
          }}
          sx={{ fontSize: 18, py: 0.5 }}
        />
        {phone && (
          <Typography
            component="button"
            onClick={onClose}
            sx={{ border: 0, bgcolor: "transparent", color: "primary.main", cursor: "pointer", font: "inherit", p: 1 }}
          >
            Close
          </Typography>
        )}
      </Box>
      <Box sx={{ height: 4 }}>{loading && <LinearProgress aria-label="Searching" sx={{ height: 4 }} />}</Box>
      <Box
        ref={listRef}
        id={`${id}-list`}
        role="listbox"
        aria-label="Results"
        sx={{ maxHeight: { sm: "60vh" }, flex: { xs: 1, sm: "none" }, overflowY: "auto", pb: 1 }}
      >
        {groups.map(({ group, items }) => (
          <Box key={group} role="group" aria-labelledby={`${id}-${group}`}>
            <Typography
              id={`${id}-${group}`}
              variant="overline"
              color="text.secondary"
              sx={{ display: "block", px: 2, pt: 1, lineHeight: "24px" }}
            >
              {HEADING[group]}
            </Typography>
            {items.map((item) => {
              const i = index++;
              const module = group === "Pages" ? MODULES.find((m) => `page:${m.path}` === item.key) : undefined;
              const Icon = module?.icon;
              return (
                <ListItemButton
                  key={item.key}
                  id={optionId(i)}
                  data-index={i}
                  role="option"
                  aria-selected={i === active}
                  selected={i === active}
                  onMouseMove={() => i !== active && setActive(i)}
                  onClick={() => go(item)}
                  dense
                  sx={{ mx: 1, borderRadius: 1, "&.Mui-selected": { bgcolor: "action.selected" } }}
                >
                  <ListItemIcon sx={{ minWidth: 36 }}>{Icon ? <Icon fontSize="small" /> : ICON[group]}</ListItemIcon>
                  <ListItemText
                    primary={item.title}
                    secondary={item.hint}
                    slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
                  />
                  {item.lock && <LockOutlined fontSize="small" aria-label={item.lock} />}
                </ListItemButton>
              );
            })}
          </Box>
        ))}
        {flat.length === 0 && !loading && (
          <Box role="status" sx={{ px: 3, py: 4, textAlign: "center" }}>
            <Typography>{query.trim() ? `Nothing matches “${query.trim()}”.` : "Type to search."}</Typography>
            <Typography variant="body2" color="text.secondary">
              Search finds pages, documents you opened lately, and companies and products by name.
            </Typography>
          </Box>
        )}
        {searchError && (
          <Typography role="alert" variant="body2" color="error" sx={{ px: 3, py: 1 }}>
            Companies and products could not be searched: {searchError.message}
          </Typography>
        )}
      </Box>
    </Dialog>
  );
}
