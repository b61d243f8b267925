import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { formatCalendarDate, type Report } from '@latchkey/shared';
import { Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';

// Loaded on demand (React.lazy in reports-page.tsx): recharts is large, and only this screen draws.

/** Entries per day (opened and refused, stacked), and sync failures per lock: where looking beats reading. */
export default function ReportCharts({ report }: { report: Report }) {
  const entriesId = useId();
  const syncId = useId();
  const perDay = report.charts.entriesPerDay.map((day) => ({
    day: formatCalendarDate(day.day),
    Opened: day.opened,
    Refused: day.denied,
  }));
  const sync = report.charts.syncFailuresPerLock.map((lock) => ({
    lock: lock.lock,
    Failures: lock.failures,
  }));
  return (
    <Stack gap="lg">
      {perDay.length > 0 && (
        <figure aria-labelledby={entriesId} style={{ margin: 0 }}>
          <Title order={4} fz="md" id={entriesId} mb="xs">
            Entries per day
          </Title>
          <BarChart
            h={240}
            data={perDay}
            dataKey="day"
            type="stacked"
            withLegend
            series={[
              { name: 'Opened', color: 'teal.7' },
              { name: 'Refused', color: 'red.7' },
            ]}
          />
          <Text size="xs" c="dimmed" component="figcaption" mt={4}>
            Days on the portal&apos;s clock ({report.period.timeZone}); the table below has each entry.
          </Text>
        </figure>
      )}
      {sync.length > 0 && (
        <figure aria-labelledby={syncId} style={{ margin: 0 }}>
          <Title order={4} fz="md" id={syncId} mb="xs">
            Credential sync failures per lock
          </Title>
          <BarChart
            h={Math.max(160, sync.length * 28)}
            data={sync}
            dataKey="lock"
            orientation="vertical"
            series={[{ name: 'Failures', color: 'orange.7' }]}
          />
          <Text size="xs" c="dimmed" component="figcaption" mt={4}>
            Credentials each lock refused in its last answer to a credential set.
          </Text>
        </figure>
      )}
    </Stack>
  );
}
