import RoleAppStart from "../../app/shell/RoleAppStart.tsx";

// The driver app's root on {slug}.driver.BASE (issue 22). Until the app is built it shows the start card.
export default function DriverApp() {
  return <RoleAppStart app="driver" />;
}
