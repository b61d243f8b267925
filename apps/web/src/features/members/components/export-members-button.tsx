import { ExportCsvButton } from '@/components/export-csv-button';
import { exportMembersCsv } from '../api/export-members';

/** "Export CSV": downloads everyone in the portal with a summary of their access. */
export function ExportMembersButton() {
  return <ExportCsvButton load={exportMembersCsv} fileName="people" what="the people" />;
}
