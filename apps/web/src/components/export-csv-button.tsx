import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { downloadFile } from '@/lib/download';
import { errorMessage } from '@/lib/errors';

interface ExportCsvButtonProps {
  /** Fetches the CSV text (the server builds and escapes it). */
  load: () => Promise<string>;
  /** The file's name before the day: "people" → people-2026-11-27.csv. */
  fileName: string;
  /** What is exported, for the failure's title: "the people" → "Could not export the people". */
  what: string;
}

/** "Export CSV": downloads what `load` answers as a dated file; a failure is told, not thrown. */
export function ExportCsvButton({ load, fileName, what }: ExportCsvButtonProps) {
  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    setExporting(true);
    try {
      const csv = await load();
      const day = new Date().toISOString().slice(0, 10);
      downloadFile(csv, `${fileName}-${day}.csv`, 'text/csv;charset=utf-8');
    } catch (error) {
      notifications.show({ color: 'red', title: `Could not export ${what}`, message: errorMessage(error) });
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
