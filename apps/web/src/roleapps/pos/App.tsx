import RoleAppStart from "../../app/shell/RoleAppStart.tsx";

// The pos app's root on {slug}.pos.BASE (issue 22). Until the app is built it shows the start card.
export default function PosApp() {
  return <RoleAppStart app="pos" />;
}
