import CancelIcon from "@mui/icons-material/Cancel";
import FilterListIcon from "@mui/icons-material/FilterList";
import SearchIcon from "@mui/icons-material/Search";
import ViewColumnIcon from "@mui/icons-material/ViewColumn";
import Badge from "@mui/material/Badge";
import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import {
  ColumnsPanelTrigger,
  FilterPanelTrigger,
  type GetColumnForNewFilterArgs,
  GridFilterPanel,
  type GridFilterPanelProps,
  gridVisibleColumnFieldsSelector,
  QuickFilter,
  QuickFilterClear,
  QuickFilterControl,
  Toolbar,
  ToolbarButton,
  useGridApiContext,
  useGridSelector,
} from "@mui/x-data-grid";
import { useCallback } from "react";
import { newFilterField } from "./listState.ts";

declare module "@mui/x-data-grid" {
  interface ToolbarPropsOverrides {
    searchLabel?: string;
  }
}

// The grid's toolbar: an always-open quick search over the resource's search columns, the column chooser and
// the filter panel (its badge shows when filters apply).
export function ListToolbar({ searchLabel }: { searchLabel?: string }) {
  return (
    <Toolbar style={{ gap: 8 }}>
      <QuickFilter defaultExpanded debounceMs={300} style={{ flex: 1, display: "flex" }}>
        <QuickFilterControl
          render={({ ref, ...controlProps }, state) => (
            <TextField
              {...controlProps}
              inputRef={ref}
              placeholder={searchLabel ?? "Search…"}
              size="small"
              sx={{ flex: 1, maxWidth: 420 }}
              slotProps={{
                ...controlProps.slotProps,
                htmlInput: { ...controlProps.slotProps?.htmlInput, "aria-label": "Search" },
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <SearchIcon fontSize="small" />
                    </InputAdornment>
                  ),
                  endAdornment: state.value ? (
                    <InputAdornment position="end">
                      <QuickFilterClear edge="end" size="small" aria-label="Clear search">
                        <CancelIcon fontSize="small" />
                      </QuickFilterClear>
                    </InputAdornment>
                  ) : null,
                  ...controlProps.slotProps?.input,
                },
              }}
            />
          )}
        />
      </QuickFilter>
      <Tooltip title="Columns">
        <ColumnsPanelTrigger render={<ToolbarButton aria-label="Choose columns" />}>
          <ViewColumnIcon fontSize="small" />
        </ColumnsPanelTrigger>
      </Tooltip>
      <Tooltip title="Filters">
        <FilterPanelTrigger
          render={(props, state) => (
            <ToolbarButton {...props} aria-label="Filters" color="default">
              <Badge badgeContent={state.filterCount} color="primary" variant="dot">
                <FilterListIcon fontSize="small" />
              </Badge>
            </ToolbarButton>
          )}
        />
      </Tooltip>
    </Toolbar>
  );
}

// The grid's filter panel, opening on the first column on screen rather than the grid's first (the hidden ID).
export function ListFilterPanel(props: GridFilterPanelProps) {
  const apiRef = useGridApiContext();
  const visible = useGridSelector(apiRef, gridVisibleColumnFieldsSelector);
  const pick = useCallback(
    ({ columns, currentFilters }: GetColumnForNewFilterArgs) => newFilterField(columns, visible, currentFilters),
    [visible],
  );
  return <GridFilterPanel {...props} getColumnForNewFilter={pick} />;
}
