import type { Device, DeviceAccess } from '@latchkey/shared';
import { Anchor, Badge, Button, Divider, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleX, IconClock, IconUsers } from '@tabler/icons-react';
import { Fragment, useId, useState } from 'react';
import { Link } from 'react-router';
import { ClockInput } from '@/components/clock-input';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { paths } from '@/config/paths';
import { CREDENTIAL_TEXT, REASON_TEXT } from '@/lib/access-words';
import { formatDateTime } from '@/lib/format';
import { instantAtWallClock, wallClockAt } from '@/lib/zoned-time';
import { useDeviceAccess } from '../api/get-device-access';

type Person = DeviceAccess['people'][number];

/** 'YYYY-MM-DDTHH:MM' as the date and time fields' values. */
function splitWallClock(local: string): { date: string; time: string } {
  return { date: local.slice(0, 10), time: local.slice(11, 16) };
}
type Other = DeviceAccess['others'][number];

/** Whose a credential without a person is, when it has no name of its own. */
const HOLDER_TEXT: Record<Other['holderType'], string> = {
  company: 'Company code',
  guest: 'Guest',
  master: 'Master code',
};

function Verdict({ person }: { person: Pick<Person, 'canOpen' | 'reason'> }) {
  if (person.canOpen) {
    return (
      <Badge
        color="teal"
        variant="light"
        size="lg"
        tt="none"
        leftSection={<IconCircleCheck size={14} aria-hidden="true" />}
      >
        Can open
      </Badge>
    );
  }
  return (
    <Badge
      color="red"
      variant="light"
      size="lg"
      tt="none"
      leftSection={<IconCircleX size={14} aria-hidden="true" />}
    >
      {person.reason ? REASON_TEXT[person.reason] : 'Cannot open'}
    </Badge>
  );
}

function PersonRow({ person }: { person: Person }) {
  return (
    <Group justify="space-between" align="center" gap="sm" py="sm" wrap="wrap">
      <Stack gap={2} style={{ flex: '1 1 220px', minWidth: 0 }}>
        <Anchor component={Link} to={paths.app.member.href(person._id)} fw={600} size="sm">
          {person.name || person.email}
        </Anchor>
        {person.name && person.name !== person.email && (
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {person.email}
          </Text>
        )}
        <Group gap={4} mt={4} wrap="wrap" aria-label="Ways to open">
          {person.credentials.map((kind) => (
            <Badge key={kind} size="xs" variant="default" tt="none">
              {CREDENTIAL_TEXT[kind]}
            </Badge>
          ))}
        </Group>
      </Stack>
      <Verdict person={person} />
    </Group>
  );
}

/**
 * One code or QR code without an account: who holds it (the stay it is for, linked) and what it is,
 * so a stay guest's code and QR code, or two stays' cleaner codes, read as different entries.
 */
function OtherRow({ other }: { other: Other }) {
  const name = other.name || HOLDER_TEXT[other.holderType];
  return (
    <Group justify="space-between" align="center" gap="sm" py="sm" wrap="wrap">
      <Group gap="xs" wrap="wrap" style={{ flex: '1 1 220px', minWidth: 0 }}>
        {other.stay ? (
          <Anchor
            component={Link}
            to={paths.app.stay.href(other.stay.listingId, other.stay._id)}
            fw={600}
            size="sm"
            style={{ overflowWrap: 'anywhere' }}
          >
            {name}
          </Anchor>
        ) : (
          <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Text>
        )}
        <Badge size="xs" variant="default" tt="none">
          {CREDENTIAL_TEXT[other.kind]}
        </Badge>
      </Group>
      <Verdict person={other} />
    </Group>
  );
}

/** Company codes, guests and the master code: they open the lock without being a person of it. */
function OthersList({ others }: { others: readonly Other[] }) {
  const open = others.filter((other) => other.canOpen).length;
  return (
    <Stack gap="xs">
      <Divider />
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Title order={3} fz="sm">
          Codes without an account
        </Title>
        <Text size="sm" c="dimmed">
          {open} of {others.length} can open
        </Text>
      </Group>
      <Stack
        gap={0}
        component="ul"
        m={0}
        p={0}
        aria-label="Codes without an account"
        style={{ listStyle: 'none' }}
      >
        {others.map((other, index) => (
          <Fragment key={other._id}>
            {index > 0 && <Divider component="li" aria-hidden="true" />}
            <li>
              <OtherRow other={other} />
            </li>
          </Fragment>
        ))}
      </Stack>
    </Stack>
  );
}

const FULL_CLOCK = /^\d{2}:\d{2}$/;

/** The "Who can open" tab: everyone with access, and whether they can open at an instant. */
export function DeviceAccessTab({ device }: { device: Device }) {
  const zone = device.timeZone;
  const hintId = useId();
  // The lock's wall clock, 'YYYY-MM-DDTHH:MM'; null follows the present.
  const [at, setAt] = useState<string | null>(null);
  // The fields: a date and a time on the 24-hour clock the app writes (a datetime-local field
  // follows the browser's locale: "11/28/2026, 10:13 AM").
  const [input, setInput] = useState(() => splitWallClock(wallClockAt(new Date(), zone)));
  const instant = at ? instantAtWallClock(at, zone) : null;
  const { data, error, isPending, isPlaceholderData, refetch } = useDeviceAccess(
    device._id,
    instant ? instant.toISOString() : null,
  );

  const backToNow = () => {
    setAt(null);
    setInput(splitWallClock(wallClockAt(new Date(), zone)));
  };
  const change = (part: 'date' | 'time', value: string) => {
    const next = { ...input, [part]: value };
    setInput(next);
    const local = `${next.date}T${next.time}`;
    if (FULL_CLOCK.test(next.time) && instantAtWallClock(local, zone)) setAt(local);
  };

  let body;
  if (isPending) body = <TableSkeleton rows={3} label="Checking who can open" />;
  else if (error) {
    body = <QueryError title="Could not check who can open" error={error} onRetry={() => void refetch()} />;
  } else {
    const open = data.people.filter((person) => person.canOpen).length;
    body = (
      <Stack gap="md" style={{ opacity: isPlaceholderData ? 0.6 : 1 }}>
        {data.people.length === 0 ? (
          <Stack align="center" gap={6} py="lg" ta="center">
            <IconUsers size={32} stroke={1.4} aria-hidden="true" color="var(--mantine-color-dimmed)" />
            <Text fw={600}>Nobody has access to this lock</Text>
            <Text size="sm" c="dimmed">
              Give people access on the People tab.
            </Text>
          </Stack>
        ) : (
          <Stack gap="xs">
            <Text size="sm" c="dimmed" aria-live="polite">
              {open} of {data.people.length} can open
            </Text>
            <Stack gap={0} component="ul" m={0} p={0} aria-label="Who can open" style={{ listStyle: 'none' }}>
              {data.people.map((person, index) => (
                <Fragment key={person._id}>
                  {index > 0 && <Divider component="li" aria-hidden="true" />}
                  <li>
                    <PersonRow person={person} />
                  </li>
                </Fragment>
              ))}
            </Stack>
          </Stack>
        )}
        {data.others.length > 0 && <OthersList others={data.others} />}
      </Stack>
    );
  }

  return (
    <SectionCard
      title="Who can open"
      description="Everyone with access, and the codes that need no account, checked against their status, schedule and validity at one moment."
    >
      <Stack gap="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            type="date"
            label="Date"
            aria-describedby={hintId}
            value={input.date}
            onChange={(event) => change('date', event.currentTarget.value)}
            style={{ flex: '0 1 180px', minWidth: 150 }}
          />
          <ClockInput
            label="Time"
            aria-describedby={hintId}
            value={input.time}
            onChange={(event) => change('time', event.currentTarget.value)}
            style={{ flex: '0 1 110px', minWidth: 90 }}
          />
          <Button variant={at === null ? 'filled' : 'default'} onClick={backToNow} style={{ flexShrink: 0 }}>
            Now
          </Button>
        </Group>
        <Text size="xs" c="dimmed" id={hintId} mt={-8}>
          On the lock&apos;s clock ({zone})
        </Text>
        {data && (
          <Group gap={6} wrap="nowrap">
            <IconClock size={16} stroke={1.6} aria-hidden="true" />
            <Text size="sm">
              Lock time:{' '}
              <strong>{formatDateTime(data.at, data.timeZone, { weekday: true, zone: true })}</strong>
              {at === null && (
                <Text span size="sm" c="dimmed">
                  , now
                </Text>
              )}
            </Text>
          </Group>
        )}
        <Divider />
        {body}
      </Stack>
    </SectionCard>
  );
}
