import {
  addDaysToDate,
  formatMonth,
  nightsBetween,
  weekdayOfDate,
  type CalendarBlock,
  type CalendarBooking,
  type ListingCalendar,
} from '@latchkey/shared';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconChevronLeft, IconChevronRight, IconLockOpen } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { formatCalendarDate, formatRange } from '@/lib/format';
import { useFormMutation } from '@/lib/forms';
import {
  addMonths,
  currentMonth,
  firstOf,
  monthOf,
  useCalendarAction,
  useListingCalendar,
} from '../api/calendar';
import classes from './calendar.module.css';
import { StayStateBadge } from './stay-text';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const monthName = (month: string) => {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return formatMonth(year, m);
};

/** Whether the night starting on `date` belongs to a stretch of nights. */
const covers = (range: { startDate: string; endDate: string }, date: string) =>
  range.startDate <= date && date < range.endDate;

/** The weeks (Monday first) of a month, with the days of the months around it to fill them. */
export function monthWeeks(month: string): string[][] {
  const first = firstOf(month);
  let day = addDaysToDate(first, -((weekdayOfDate(first) + 6) % 7));
  const weeks: string[][] = [];
  while (weeks.length === 0 || monthOf(day) === month) {
    weeks.push(Array.from({ length: 7 }, (_, i) => addDaysToDate(day, i)));
    day = addDaysToDate(day, 7);
  }
  return weeks;
}

function bookingClass(booking: CalendarBooking): string {
  const kind =
    booking.state === 'requested'
      ? classes.request
      : booking.source === 'ical'
        ? classes.imported
        : classes.booking;
  return `${classes.bar} ${kind} ${booking.overlaps.length > 0 ? classes.flagged : ''}`;
}

function bookingWords(booking: CalendarBooking): string {
  const what =
    booking.state === 'requested'
      ? 'requested by'
      : booking.feedName
        ? `booked on ${booking.feedName} by`
        : 'booked by';
  return `${what} ${booking.guestName}${booking.overlaps.length > 0 ? ', overlapping another booking' : ''}`;
}

function MonthGrid({ calendar, month }: { calendar: ListingCalendar; month: string }) {
  return (
    <table className={classes.grid} aria-label={`Nights of ${monthName(month)}`}>
      <thead>
        <tr>
          {WEEKDAYS.map((day) => (
            <th key={day} scope="col">
              {day}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {monthWeeks(month).map((week) => (
          <tr key={week[0]}>
            {week.map((date) => {
              const bookings = calendar.bookings.filter((b) => covers(b, date));
              const blocks = calendar.blocks.filter((b) => covers(b, date));
              const said = [
                ...bookings.map(bookingWords),
                ...blocks.map((b) =>
                  b.source === 'ical'
                    ? `not available on ${b.feedName ?? 'an imported calendar'}`
                    : `blocked${b.note ? `: ${b.note}` : ''}`,
                ),
              ];
              return (
                <td
                  key={date}
                  data-outside={monthOf(date) !== month || undefined}
                  data-today={date === calendar.today || undefined}
                >
                  <div className={classes.number} aria-hidden="true">
                    {Number(date.slice(8))}
                  </div>
                  <VisuallyHidden>
                    {formatCalendarDate(date)}
                    {date === calendar.today ? ', today' : ''}: {said.length > 0 ? said.join('; ') : 'free'}
                  </VisuallyHidden>
                  {bookings.map((b) => (
                    <span key={b._id} className={bookingClass(b)} aria-hidden="true" title={b.guestName}>
                      {b.startDate === date || weekdayOfDate(date) === 1 ? b.guestName : '\u00a0'}
                    </span>
                  ))}
                  {blocks.map((b) => (
                    <span
                      key={b._id}
                      className={`${classes.bar} ${classes.block}`}
                      aria-hidden="true"
                      title={b.note}
                    >
                      {b.startDate === date || weekdayOfDate(date) === 1
                        ? b.source === 'ical'
                          ? (b.feedName ?? 'Imported')
                          : b.note || 'Blocked'
                        : '\u00a0'}
                    </span>
                  ))}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Legend() {
  const items: [string | undefined, string][] = [
    [classes.booking, 'Booked here'],
    [classes.imported, 'Booked on another platform'],
    [classes.request, 'Requested'],
    [classes.block, 'Blocked'],
    [`${classes.booking} ${classes.flagged}`, 'Double-booked'],
  ];
  return (
    <Group gap="md" aria-hidden="true">
      {items.map(([className, label]) => (
        <Text key={label} size="xs" c="dimmed">
          <span className={`${classes.swatch} ${className ?? ''}`} />
          {label}
        </Text>
      ))}
    </Group>
  );
}

function MonthList({
  listingId,
  calendar,
  month,
}: {
  listingId: string;
  calendar: ListingCalendar;
  month: string;
}) {
  const action = useCalendarAction(listingId);
  const inMonth = (r: { startDate: string; endDate: string }) =>
    r.startDate < firstOf(addMonths(month, 1)) && r.endDate > firstOf(month);
  const bookings = calendar.bookings.filter(inMonth);
  const blocks = calendar.blocks.filter(inMonth);
  const names = new Map(calendar.bookings.map((b) => [b._id, b.guestName]));
  const unblock = (block: CalendarBlock) =>
    action.mutate(
      { action: 'unblock', blockId: block._id },
      {
        onSuccess: () =>
          notifications.show({
            color: 'teal',
            title: 'Nights opened',
            message: `${formatCalendarDate(block.startDate)} – ${formatCalendarDate(block.endDate)}`,
          }),
        onError: (error) =>
          notifications.show({
            color: 'red',
            title: 'Could not open the nights',
            message: errorMessage(error),
          }),
      },
    );
  if (bookings.length === 0 && blocks.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Nothing booked or blocked in {monthName(month)}.
      </Text>
    );
  }
  return (
    <Stack
      gap="xs"
      component="ul"
      m={0}
      p={0}
      style={{ listStyle: 'none' }}
      aria-label={`In ${monthName(month)}`}
    >
      {bookings.map((b) => (
        <li key={b._id}>
          <Group gap="xs" wrap="wrap" align="center">
            <Anchor component={Link} to={paths.app.stay.href(listingId, b._id)} size="sm" fw={600}>
              {b.guestName}
            </Anchor>
            <Text size="sm">
              {formatCalendarDate(b.startDate)} – {formatCalendarDate(b.endDate)} · {b.nights} night
              {b.nights === 1 ? '' : 's'}
            </Text>
            <StayStateBadge state={b.state} size="sm" />
            {b.feedName && (
              <Badge color="indigo" variant="light" size="sm">
                From {b.feedName}
              </Badge>
            )}
            {b.overlaps.length > 0 && (
              <Badge
                color="red"
                variant="light"
                size="sm"
                leftSection={<IconAlertTriangle size={12} aria-hidden="true" />}
              >
                Overlaps {b.overlaps.map((id) => names.get(id) ?? 'a block').join(', ')}
              </Badge>
            )}
          </Group>
        </li>
      ))}
      {blocks.map((b) => (
        <li key={b._id}>
          <Group gap="xs" wrap="wrap" align="center">
            <Text size="sm" fw={600}>
              {b.source === 'ical'
                ? `Not available on ${b.feedName ?? 'an imported calendar'}`
                : b.note || 'Blocked'}
            </Text>
            <Text size="sm">
              {formatCalendarDate(b.startDate)} – {formatCalendarDate(b.endDate)}
            </Text>
            {b.source === 'owner' ? (
              <Button
                size="compact-xs"
                variant="subtle"
                leftSection={<IconLockOpen size={12} aria-hidden="true" />}
                loading={
                  action.isPending &&
                  action.variables?.action === 'unblock' &&
                  action.variables.blockId === b._id
                }
                onClick={() => unblock(b)}
                aria-label={`Open the nights ${formatCalendarDate(b.startDate)} to ${formatCalendarDate(b.endDate)}`}
              >
                Open
              </Button>
            ) : (
              <Text size="xs" c="dimmed">
                Opens when {b.feedName ?? 'that calendar'} drops it
              </Text>
            )}
          </Group>
        </li>
      ))}
    </Stack>
  );
}

interface BlockValues {
  startDate: string;
  endDate: string;
  note: string;
}

const BLOCK_LABELS = { startDate: 'First night', endDate: 'Open again on', note: 'Note' };

function BlockForm({ listingId }: { listingId: string }) {
  const action = useCalendarAction(listingId);
  const form = useForm<BlockValues>({
    mode: 'controlled',
    initialValues: { startDate: '', endDate: '', note: '' },
    validate: {
      startDate: (value) => (value ? null : 'Choose the first night'),
      endDate: (value, values) =>
        !value
          ? 'Choose the day it opens again'
          : value <= values.startDate
            ? 'Must be after the first night'
            : null,
    },
  });
  const { submit } = useFormMutation(form, {
    run: async (values) => {
      await action.mutateAsync({ action: 'block', ...values });
      form.reset();
      notifications.show({
        color: 'teal',
        title: 'Nights blocked',
        message: `${nightsBetween(values.startDate, values.endDate)} night(s) closed to requests and marked not available in the export feed.`,
      });
    },
    labels: BLOCK_LABELS,
    otherwise: 'Could not block the nights',
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Block nights">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <TextInput type="date" label={BLOCK_LABELS.startDate} {...form.getInputProps('startDate')} />
        <TextInput type="date" label={BLOCK_LABELS.endDate} {...form.getInputProps('endDate')} />
        <TextInput
          label={BLOCK_LABELS.note}
          placeholder="Painting, family visit…"
          maxLength={200}
          {...form.getInputProps('note')}
        />
      </SimpleGrid>
      <Group justify="flex-end" mt="sm">
        <Button type="submit" variant="default" loading={action.isPending}>
          Block nights
        </Button>
      </Group>
    </form>
  );
}

/** A listing's calendar: a month of bookings, requests and blocks, the month's list, blocking nights. */
export function CalendarSection({ listingId }: { listingId: string }) {
  const [month, setMonth] = useState(currentMonth);
  const calendar = useListingCalendar(listingId, month);
  const flagged =
    calendar.data?.bookings.filter((b) => b.overlaps.length > 0 && b.state === 'approved') ?? [];
  return (
    <SectionCard
      title="Calendar"
      description="Bookings, requests and blocked nights on the listing's calendar. Blocked nights take no requests and are exported as not available."
      aside={
        <Group gap="xs" wrap="nowrap">
          <ActionIcon
            variant="default"
            aria-label="Previous month"
            onClick={() => setMonth(addMonths(month, -1))}
          >
            <IconChevronLeft size={18} aria-hidden="true" />
          </ActionIcon>
          <Text fw={600} miw={130} ta="center" aria-live="polite">
            {monthName(month)}
          </Text>
          <ActionIcon variant="default" aria-label="Next month" onClick={() => setMonth(addMonths(month, 1))}>
            <IconChevronRight size={18} aria-hidden="true" />
          </ActionIcon>
        </Group>
      }
    >
      <Stack gap="md">
        {calendar.isPending ? (
          <Skeleton height={320} radius="md" aria-label="Loading the calendar" />
        ) : calendar.error ? (
          <QueryError
            title="Could not load the calendar"
            error={calendar.error}
            onRetry={() => void calendar.refetch()}
          />
        ) : (
          <>
            {flagged.length > 0 && (
              <Alert
                color="red"
                variant="light"
                icon={<IconAlertTriangle aria-hidden="true" />}
                title="Double bookings"
              >
                {flagged
                  .map(
                    (b) =>
                      `${b.guestName} (${formatCalendarDate(b.startDate)} – ${formatCalendarDate(b.endDate)})`,
                  )
                  .join(', ')}{' '}
                overlap{flagged.length === 1 ? 's' : ''} another booking or blocked nights. Cancel or move one
                of them.
              </Alert>
            )}
            <div style={{ opacity: calendar.isPlaceholderData ? 0.6 : 1 }}>
              <MonthGrid calendar={calendar.data} month={month} />
            </div>
            <Legend />
            <MonthList listingId={listingId} calendar={calendar.data} month={month} />
            {calendar.data.windows.length > 0 && (
              <Text size="xs" c="dimmed">
                Access this month:{' '}
                {calendar.data.windows
                  .filter((w) => w.holder === 'guest')
                  .slice(0, 6)
                  .map((w) => `${w.name} ${formatRange(w.from, w.until, calendar.data.timeZone)}`)
                  .join('; ')}
                {` (${calendar.data.timeZone})`}
              </Text>
            )}
          </>
        )}
        <BlockForm listingId={listingId} />
      </Stack>
    </SectionCard>
  );
}
