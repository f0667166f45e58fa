import Drawer from "@mui/material/Drawer";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import { AppLink } from "../app/links.tsx";

export type MenuLink = { to: string; label: string };

// Loaded on the first tap on the menu button: the drawer (modal, focus trap, transitions) is not landing-page code.
export default function MobileMenu({ links, open, onClose }: { links: MenuLink[]; open: boolean; onClose(): void }) {
  return (
    <Drawer anchor="right" open={open} onClose={onClose}>
      <List sx={{ width: 260 }} component="nav" aria-label="Mobile">
        {links.map((l) => (
          <ListItemButton key={l.to} component={AppLink} to={l.to} onClick={onClose}>
            <ListItemText primary={l.label} />
          </ListItemButton>
        ))}
      </List>
    </Drawer>
  );
}
