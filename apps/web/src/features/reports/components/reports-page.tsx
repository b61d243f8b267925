import {
  PERIOD_PRESETS,
  PERIOD_PRESET_LABELS,
  REPORT_KINDS,
  REPORT_TITLES,
  type PeriodPreset,
  type Report,
  type ReportKind,
  type ReportPeriod,
} from '@latchkey/shared';
import {
  Alert,
  Badge,
  Box,
  Button,
  CloseButton,
  Group,
  MultiSelect,
  Pill,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconFileTypePdf, IconReportAnalytics } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { EmptyList } from '@/components/empty-list';
import { ListPagination } from '@/components/list-pagination';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { errorMessage } from '@/lib/errors';
import { useLockOptions } from '@/features/devices/api/get-devices';
import { useGroupOptions } from '@/features/groups/api/get-groups';
import { PersonSelect } from '@/features/people-picker/components/person-select';
import { downloadReport, useReport, type ReportQuery } from '../api/get-report';
import { filtersOf, type ReportFilterState } from './report-filters';
import { ZoneFilter } from '@/features/zones/components/zone-filter';
import { ReportSchedules } from './report-schedules';

// The charts load with their own chunk (recharts), after the table, only on this screen.
const ReportCharts = lazy(() => import('./report-charts'));

const PAGE_SIZE = 50;

const KIND_OPTIONS = REPORT_KINDS.map((kind) => ({ value: kind, label: REPORT_TITLES[kind] }));
const PERIOD_OPTIONS = [
  ...PERIOD_PRESETS.map((preset) => ({ value: preset, label: PERIOD_PRESET_LABELS[preset] })),
  { value: 'custom', label: 'Chosen dates' },
];
/** The reports a period changes (the others are as of now). */
const USES_PERIOD: ReadonlySet<ReportKind> = new Set(['entries', 'health']);

function FilterFields({
  value,
  onChange,
}: {
  value: ReportFilterState;
  onChange: (next: ReportFilterState) => void;
}) {
  const locks = useLockOptions();
  const groups = useGroupOptions();
  const [personKey, setPersonKey] = useState(0);
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
      <MultiSelect
        label="Locks"
        placeholder={value.deviceIds.length ? undefined : 'Every lock'}
        data={(locks.data?.items ?? []).map((lock) => ({ value: lock._id, label: lock.name }))}
        value={value.deviceIds}
        onChange={(deviceIds) => onChange({ ...value, deviceIds })}
        searchable
        clearable
        nothingFoundMessage="No lock has that name"
      />
      <MultiSelect
        label="Groups"
        placeholder={value.groupIds.length ? undefined : 'No group'}
        data={(groups.data?.items ?? []).map((group) => ({ value: group._id, label: group.name }))}
        value={value.groupIds}
        onChange={(groupIds) => onChange({ ...value, groupIds })}
        searchable
        clearable
        nothingFoundMessage="No group has that name"
      />
      <ZoneFilter value={value.zoneId ?? null} onChange={(zoneId) => onChange({ ...value, zoneId })} />
      <Stack gap={6}>
        <PersonSelect
          key={personKey}
          label="People"
          placeholder="Everyone: type to add a person"
          value={null}
          exclude={value.people.map((person) => person._id)}
          onChange={(userId, person) => {
            if (userId && person && !value.people.some((p) => p._id === userId)) {
              onChange({ ...value, people: [...value.people, { _id: userId, name: person.name }] });
            }
            setPersonKey((key) => key + 1);
          }}
        />
        {value.people.length > 0 && (
          <Group gap={6}>
            {value.people.map((person) => (
              <Pill
                key={person._id}
                withRemoveButton
                onRemove={() =>
                  onChange({ ...value, people: value.people.filter((p) => p._id !== person._id) })
                }
                removeButtonProps={{ 'aria-label': `Remove ${person.name}` }}
              >
                {person.name}
              </Pill>
            ))}
          </Group>
        )}
      </Stack>
    </SimpleGrid>
  );
}

/** Columns whose text may wrap; the others stay on one line and the table scrolls sideways. */
const WRAPPING = new Set(['expired', 'problem', 'credentials']);

/**
 * A report's table in a region that scrolls sideways on a narrow screen: focusable and named, so a
 * keyboard can scroll it too (WCAG: scrollable regions are reachable).
 */
function ReportTable({ report, caption }: { report: Pick<Report, 'columns' | 'rows'>; caption: string }) {
  return (
    <Box
      role="region"
      aria-label={`${caption} (scrolls sideways)`}
      tabIndex={0}
      style={{ overflowX: 'auto' }}
    >
      <Table striped highlightOnHover withTableBorder verticalSpacing={6} fz="sm" aria-label={caption}>
        <Table.Thead>
          <Table.Tr>
            {report.columns.map((column) => (
              <Table.Th key={column.key} scope="col" style={{ whiteSpace: 'nowrap' }}>
                {column.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {report.rows.map((row, index) => (
            <Table.Tr key={index}>
              {report.columns.map((column) => (
                <Table.Td
                  key={column.key}
                  style={WRAPPING.has(column.key) ? { minWidth: 220 } : { whiteSpace: 'nowrap' }}
                >
                  {row[column.key] ?? '—'}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Box>
  );
}

function DownloadButtons({ query, report }: { query: ReportQuery; report: Report }) {
  const [busy, setBusy] = useState<'csv' | 'pdf' | null>(null);
  const download = async (format: 'csv' | 'pdf') => {
    setBusy(format);
    try {
      await downloadReport(
        query,
        format,
        `${report.kind}-${report.period.from}-to-${report.period.to}.${format}`,
      );
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Could not download the report',
        message: errorMessage(error),
      });
    } finally {
      setBusy(null);
    }
  };
  return (
    <Group gap="xs">
      <Button
        variant="default"
        leftSection={<IconDownload size={16} aria-hidden="true" />}
        loading={busy === 'csv'}
        onClick={() => void download('csv')}
      >
        Download CSV
      </Button>
      <Button
        variant="default"
        leftSection={<IconFileTypePdf size={16} aria-hidden="true" />}
        loading={busy === 'pdf'}
        onClick={() => void download('pdf')}
      >
        Download PDF
      </Button>
    </Group>
  );
}

function filterText(report: Report): string {
  const parts = [
    report.filters.locks.length ? `Locks: ${report.filters.locks.map((x) => x.name).join(', ')}` : null,
    report.filters.groups.length ? `Groups: ${report.filters.groups.map((x) => x.name).join(', ')}` : null,
    report.filters.people.length ? `People: ${report.filters.people.map((x) => x.name).join(', ')}` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'Every lock and person';
}

function ReportResult({
  query,
  page,
  onPage,
}: {
  query: ReportQuery;
  page: number;
  onPage: (page: number) => void;
}) {
  const report = useReport(query);
  if (report.isPending) return <TableSkeleton rows={6} label="Making the report" />;
  if (report.error)
    return (
      <QueryError
        title="Could not make the report"
        error={report.error}
        onRetry={() => void report.refetch()}
      />
    );
  const data = report.data;
  const hasCharts = data.charts.entriesPerDay.length > 0 || data.charts.syncFailuresPerLock.length > 0;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Title order={3} fz="lg">
            {data.title}
          </Title>
          <Text size="sm">
            {data.portal.name} · {USES_PERIOD.has(data.kind) ? data.period.label : 'As of now'}
            {USES_PERIOD.has(data.kind) && ` (days on the portal's clock, ${data.period.timeZone})`}
          </Text>
          <Text size="sm" c="dimmed">
            Times on each lock&apos;s clock: {data.zones.join(', ')} · Filters: {filterText(data)}
          </Text>
        </Stack>
        <DownloadButtons query={query} report={data} />
      </Group>
      {data.notes.map((note) => (
        <Text key={note} size="sm" c="dimmed">
          {note}
        </Text>
      ))}
      {hasCharts && (
        <Suspense fallback={<Skeleton h={240} radius="md" aria-label="Loading the charts" />}>
          <ReportCharts report={data} />
        </Suspense>
      )}
      {data.summaries.length > 0 && (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          {data.summaries.map((table) => (
            <Stack key={table.title} gap="xs">
              <Title order={4} fz="md">
                {table.title}
              </Title>
              {table.rows.length ? (
                <ReportTable report={table} caption={table.title} />
              ) : (
                <Text size="sm" c="dimmed">
                  Nothing in this period.
                </Text>
              )}
            </Stack>
          ))}
        </SimpleGrid>
      )}
      <Stack gap="xs">
        <Title order={4} fz="md">
          {data.kind === 'entries' ? 'Each entry' : 'Rows'}{' '}
          <Badge variant="light" color="gray" ml={4}>
            {data.total}
          </Badge>
        </Title>
        {data.rows.length === 0 ? (
          <EmptyList
            icon={<IconReportAnalytics size={28} aria-hidden="true" />}
            title="Nothing to report"
            description="No rows for this period and these filters. Choose a longer period or fewer filters."
          />
        ) : (
          <>
            <ReportTable report={data} caption={data.title} />
            <ListPagination
              page={page}
              pageSize={PAGE_SIZE}
              total={data.total}
              onChange={onPage}
              noun="rows"
            />
          </>
        )}
      </Stack>
    </Stack>
  );
}

export function ReportsPage() {
  const [kind, setKind] = useState<ReportKind>('entries');
  const [periodChoice, setPeriodChoice] = useState<PeriodPreset | 'custom'>('last-week');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [filters, setFilters] = useState<ReportFilterState>({ deviceIds: [], groupIds: [], people: [] });
  const [asked, setAsked] = useState<Omit<ReportQuery, 'skip' | 'limit'> | null>(null);
  const [page, setPage] = useState(1);
  const [formError, setFormError] = useState<string | null>(null);

  const run = () => {
    let period: ReportPeriod;
    if (periodChoice === 'custom') {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) {
        setFormError('Choose the first and the last day of the period.');
        return;
      }
      if (from > to) {
        setFormError('The period must not end before it starts.');
        return;
      }
      period = { from, to };
    } else period = { preset: periodChoice };
    setFormError(null);
    setPage(1);
    setAsked({ kind, period, filters: filtersOf(filters) });
  };

  const query = asked && { ...asked, skip: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE };
  return (
    <Stack gap="lg">
      <PageHeader
        title="Reports"
        description="Who opened what and when, who can open each lock now, the locks' health, and people without access: on screen, as CSV or PDF, or mailed every week or month."
      />
      <SectionCard title="Make a report">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            run();
          }}
        >
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              <Select
                label="Report"
                data={KIND_OPTIONS}
                value={kind}
                onChange={(value) => value && setKind(value as ReportKind)}
                allowDeselect={false}
              />
              <Select
                label="Period"
                data={PERIOD_OPTIONS}
                value={periodChoice}
                onChange={(value) => value && setPeriodChoice(value as PeriodPreset | 'custom')}
                allowDeselect={false}
                description={USES_PERIOD.has(kind) ? undefined : 'This report is as of now'}
              />
              {periodChoice === 'custom' && (
                <Group grow gap="xs" align="flex-start">
                  <TextInput
                    type="date"
                    label="From"
                    value={from}
                    onChange={(e) => setFrom(e.currentTarget.value)}
                  />
                  <TextInput
                    type="date"
                    label="To"
                    value={to}
                    onChange={(e) => setTo(e.currentTarget.value)}
                  />
                </Group>
              )}
            </SimpleGrid>
            <FilterFields value={filters} onChange={setFilters} />
            {formError && (
              <Alert color="red" variant="light" role="alert">
                {formError}
              </Alert>
            )}
            <Group justify="flex-end">
              {asked && (
                <CloseButton
                  aria-label="Clear the report"
                  onClick={() => setAsked(null)}
                  size="lg"
                  title="Clear the report"
                />
              )}
              <Button type="submit" leftSection={<IconReportAnalytics size={16} aria-hidden="true" />}>
                Show report
              </Button>
            </Group>
          </Stack>
        </form>
      </SectionCard>
      {query && (
        <SectionCard title="Report">
          <ReportResult query={query} page={page} onPage={setPage} />
        </SectionCard>
      )}
      <ReportSchedules filters={filters} kind={kind} />
    </Stack>
  );
}
