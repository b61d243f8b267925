import { REPORT_TITLES, type ReportFrequency, type ReportKind, type ReportSchedule } from '@latchkey/shared';
import {
  ActionIcon,
  Button,
  Group,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCalendarRepeat, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmptyList } from '@/components/empty-list';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { useMembers } from '@/features/members/api/get-members';
import { useCreateReportSchedule } from '../api/create-report-schedule';
import { useDeleteReportSchedule } from '../api/delete-report-schedule';
import { useReportSchedules } from '../api/get-report-schedules';
import { filtersOf, type ReportFilterState } from './report-filters';

const FREQUENCY_OPTIONS = [
  { value: 'weekly', label: 'Every week (on Monday, for Monday to Sunday)' },
  { value: 'monthly', label: 'Every month (on the 1st, for the month before)' },
];
const FREQUENCY_WORDS: Record<ReportFrequency, string> = { weekly: 'Weekly', monthly: 'Monthly' };

function filterWords(schedule: ReportSchedule): string {
  const parts = [
    ...schedule.filters.locks.map((x) => x.name),
    ...schedule.filters.groups.map((x) => `group ${x.name}`),
    ...schedule.filters.people.map((x) => x.name),
  ];
  return parts.length ? parts.join(', ') : 'Everything';
}

/** The reports mailed weekly or monthly: the list, with remove, and a form to add one. */
export function ReportSchedules({ filters, kind }: { filters: ReportFilterState; kind: ReportKind }) {
  const schedules = useReportSchedules();
  const admins = useMembers({ filterBy: 'role', filterValue: 'admin', limit: 100, sortBy: 'firstName' });
  const create = useCreateReportSchedule();
  const remove = useDeleteReportSchedule();
  const [frequency, setFrequency] = useState<ReportFrequency>('weekly');
  const [recipients, setRecipients] = useState<string[]>([]);
  const [removing, setRemoving] = useState<ReportSchedule | null>(null);

  const adminOptions = (admins.data?.items ?? [])
    .filter((person) => person.status === 'active')
    .map((person) => ({
      value: person._id,
      label: [person.firstName, person.lastName].filter(Boolean).join(' ') || person.email,
    }));

  const add = () =>
    create.mutate(
      {
        kind,
        frequency,
        filters: filtersOf(filters),
        recipientIds: recipients,
      },
      {
        onSuccess: (schedule) => {
          setRecipients([]);
          notifications.show({
            color: 'teal',
            title: 'Report scheduled',
            message: `${REPORT_TITLES[schedule.kind]}, ${FREQUENCY_WORDS[schedule.frequency].toLowerCase()}, to ${schedule.recipients.map((r) => r.email).join(', ')}`,
          });
        },
        onError: (error) =>
          notifications.show({
            color: 'red',
            title: 'Could not schedule the report',
            message: errorMessage(error),
          }),
      },
    );

  let list;
  if (schedules.isPending) list = <TableSkeleton rows={2} label="Loading the scheduled reports" />;
  else if (schedules.error)
    list = (
      <QueryError
        title="Could not load the scheduled reports"
        error={schedules.error}
        onRetry={() => void schedules.refetch()}
      />
    );
  else if (schedules.data.items.length === 0)
    list = (
      <EmptyList
        icon={<IconCalendarRepeat size={28} aria-hidden="true" />}
        title="No report is mailed yet"
        description="Choose a report and filters above, then schedule it below: it is mailed with its CSV (and PDF) after each week or month."
      />
    );
  else
    list = (
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing={6} fz="sm" aria-label="Scheduled reports">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Report</Table.Th>
              <Table.Th scope="col">When</Table.Th>
              <Table.Th scope="col">Filters</Table.Th>
              <Table.Th scope="col">To</Table.Th>
              <Table.Th scope="col">Last sent</Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {schedules.data.items.map((schedule) => (
              <Table.Tr key={schedule._id}>
                <Table.Td>{REPORT_TITLES[schedule.kind]}</Table.Td>
                <Table.Td>{FREQUENCY_WORDS[schedule.frequency]}</Table.Td>
                {/* break-word, not anywhere: words stay whole ("Everything"), only one too long
                    for any line (a lock's name) breaks. */}
                <Table.Td style={{ overflowWrap: 'break-word' }}>{filterWords(schedule)}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  {schedule.recipients.map((r) => r.email).join(', ') || 'Nobody (no admin left)'}
                </Table.Td>
                <Table.Td>{schedule.lastSentAt ? formatDateTime(schedule.lastSentAt) : 'Not yet'}</Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Stop mailing ${REPORT_TITLES[schedule.kind]} (${FREQUENCY_WORDS[schedule.frequency].toLowerCase()})`}
                    onClick={() => setRemoving(schedule)}
                  >
                    <IconTrash size={16} aria-hidden="true" />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );

  return (
    <SectionCard
      title="Scheduled reports"
      description="Mailed to admins of the portal after each week or month, with the report as CSV (and as PDF when it is small)."
    >
      <Stack gap="md">
        {list}
        <form
          onSubmit={(event) => {
            event.preventDefault();
            add();
          }}
        >
          <Stack gap="sm">
            <Text size="sm">
              Schedule <strong>{REPORT_TITLES[kind]}</strong> with the filters chosen above.
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <Select
                label="How often"
                data={FREQUENCY_OPTIONS}
                value={frequency}
                onChange={(value) => value && setFrequency(value as ReportFrequency)}
                allowDeselect={false}
              />
              <MultiSelect
                label="Mail to"
                placeholder={recipients.length ? undefined : 'Me'}
                description="Admins of the portal; none chosen: you"
                data={adminOptions}
                value={recipients}
                onChange={setRecipients}
                searchable
                clearable
              />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button
                type="submit"
                variant="light"
                loading={create.isPending}
                leftSection={<IconCalendarRepeat size={16} aria-hidden="true" />}
              >
                Schedule report
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
      <ConfirmDialog
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title="Stop this scheduled report?"
        confirmLabel="Stop mailing it"
        color="red"
        loading={remove.isPending}
        onConfirm={() =>
          removing &&
          remove.mutate(removing._id, {
            onSuccess: () => setRemoving(null),
            onError: (error) =>
              notifications.show({
                color: 'red',
                title: 'Could not stop the report',
                message: errorMessage(error),
              }),
          })
        }
      >
        {removing &&
          `${REPORT_TITLES[removing.kind]} is no longer mailed ${FREQUENCY_WORDS[removing.frequency].toLowerCase()}.`}
      </ConfirmDialog>
    </SectionCard>
  );
}
