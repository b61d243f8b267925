import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { downloadFile } from '@/lib/download';
import { errorMessage } from '@/lib/errors';
import { exportMembersCsv } from '../api/export-members';

/** "Export CSV": downloads everyone in the portal with a summary of their access. */
export function ExportMembersButton() {
  const [exporting, setExporting] = useState(false);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const csv = await exportMembersCsv();
      const day = new Date().toISOString().slice(0, 10);
      downloadFile(csv, `people-${day}.csv`, 'text/csv;charset=utf-8');
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Could not export the people',
        message: errorMessage(error),
      });
    } finally {
      setExporting(false);
    }
  };

  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={18} aria-hidden="true" />}
      loading={exporting}
      onClick={() => void exportCsv()}
    >
      Export CSV
    </Button>
  );
}
