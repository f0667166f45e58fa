import RoleAppStart from "../../app/shell/RoleAppStart.tsx";

// The warehouse app's root on {slug}.warehouse.BASE (issue 22). Until the app is built it shows the start card.
export default function WarehouseApp() {
  return <RoleAppStart app="warehouse" />;
}
