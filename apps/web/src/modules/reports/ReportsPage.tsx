// Issue 12: the reports page (every report by area). Being built; replaced by the reports page work.
export default function ReportsPage() {
  return null;
}
