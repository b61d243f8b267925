import { LOCK_MODELS, type Device, type DeviceSync } from '@latchkey/shared';
import type { ReactNode } from 'react';
import { Badge, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { CREDENTIAL_TEXT } from '@/lib/access-words';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useDeviceSync } from '../api/get-device-sync';
import { BatteryLevel, LastSeen } from './device-status';

const STATE_COLORS = { pending: 'gray', sent: 'blue', confirmed: 'teal', rejected: 'red' } as const;
const STATE_TEXT = {
  pending: 'Pending',
  sent: 'Sent',
  confirmed: 'Confirmed',
  rejected: 'Rejected',
} as const;
const REJECTION_TEXT = {
  unsupported_kind: 'the lock has no reader for it',
  invalid_secret: 'the lock cannot store this code or card',
  storage_full: 'the lock is full',
} as const;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

function When({ iso }: { iso: string | null }) {
  if (!iso) return <>never</>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso)}
    </time>
  );
}

function VersionSummary({ sync }: { sync: DeviceSync }) {
  const counts = { pending: 0, sent: 0, confirmed: 0, rejected: 0 };
  for (const credential of sync.credentials) counts[credential.state]++;
  return (
    <Stack gap="md">
      <Group gap="sm">
        <Badge
          size="lg"
          variant="light"
          color={sync.inSync ? 'teal' : sync.desiredVersion === null ? 'gray' : 'yellow'}
        >
          {sync.inSync ? 'In sync' : sync.desiredVersion === null ? 'No set yet' : 'Waiting for the lock'}
        </Badge>
        {counts.rejected > 0 && (
          <Badge size="lg" variant="light" color="red">
            {counts.rejected} rejected
          </Badge>
        )}
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
        <Fact label="Desired">
          {sync.desiredVersion === null ? '—' : `v${sync.desiredVersion}`} · <When iso={sync.desiredAt} />
        </Fact>
        <Fact label="Sent">
          {sync.sentVersion === null ? '—' : `v${sync.sentVersion}`} · <When iso={sync.sentAt} />
        </Fact>
        <Fact label="Confirmed">
          {sync.confirmedVersion === null ? '—' : `v${sync.confirmedVersion}`} ·{' '}
          <When iso={sync.confirmedAt} />
        </Fact>
        <Fact label="Lock reports">{sync.reportedVersion === null ? '—' : `v${sync.reportedVersion}`}</Fact>
      </SimpleGrid>
      {sync.credentials.length > 0 && (
        <Table.ScrollContainer minWidth={420}>
          <Table verticalSpacing="xs" aria-label="Credentials on the lock">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Credential</Table.Th>
                <Table.Th>Since</Table.Th>
                <Table.Th>State</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sync.credentials.map((credential) => (
                <Table.Tr key={credential.credentialId}>
                  <Table.Td>
                    <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                      {credential.holder}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {/* An app-style entry without a person is a stay guest's QR code. */}
                      {credential.kind === 'remote' && credential.userId === null
                        ? CREDENTIAL_TEXT.qr
                        : CREDENTIAL_TEXT[credential.kind]}
                    </Text>
                  </Table.Td>
                  <Table.Td>v{credential.sinceVersion}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={STATE_COLORS[credential.state]}>
                      {STATE_TEXT[credential.state]}
                    </Badge>
                    {credential.reason && (
                      <Text size="xs" c="red">
                        {REJECTION_TEXT[credential.reason]}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

/**
 * How much the lock holds: what it said itself (a Z-Wave node's own user-code slots, which the
 * portal counts codes against), or else its model's figure.
 */
function LockMemory({ device, sync }: { device: Device; sync: DeviceSync | undefined }) {
  const reported = device.capabilities;
  if (!reported) return <>{LOCK_MODELS[device.model].capacity} credentials (its model)</>;
  // Codes the lock holds or is asked to: every code of its set but those it refused.
  const inUse = sync?.credentials.filter((c) => c.kind === 'code' && c.state !== 'rejected').length;
  return (
    <>
      {reported.codeSlots} code slots{inUse === undefined ? '' : `, ${inUse} in use`}
      <Text size="xs" c="dimmed">
        As the lock reports. It takes:{' '}
        {reported.kinds.map((kind) => CREDENTIAL_TEXT[kind]).join(', ') || 'nothing'}
      </Text>
    </>
  );
}

/**
 * The Sync tab: the lock's connection and how far its credential set got (desired → sent →
 * confirmed, each credential's state). Remote unlock/lock is in the page's header, on every tab.
 */
export function DeviceSyncTab({ device }: { device: Device }) {
  const sync = useDeviceSync(device._id);
  let summary;
  if (sync.isPending) summary = <TableSkeleton rows={3} label="Loading the sync state" />;
  else if (sync.error) {
    summary = (
      <QueryError
        title="Could not load the sync state"
        error={sync.error}
        onRetry={() => void sync.refetch()}
      />
    );
  } else summary = <VersionSummary sync={sync.data} />;

  return (
    <Stack gap="lg">
      <SectionCard title="Connection" description="What the lock last reported about itself.">
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
          <Fact label="State">
            <LastSeen device={device} />
          </Fact>
          <Fact label="Battery">
            <BatteryLevel device={device} withLabel />
          </Fact>
          <Fact label="Lock">{device.lockState ?? 'not reported'}</Fact>
          <Fact label="Firmware">{device.firmware ?? 'not reported'}</Fact>
          <Fact label="Memory">
            <LockMemory device={device} sync={sync.data} />
          </Fact>
        </SimpleGrid>
      </SectionCard>
      <SectionCard
        title="Credentials on the lock"
        description="Every change makes a new version of the lock's set; the lock confirms each one, and says which entries it could not take."
      >
        {summary}
      </SectionCard>
    </Stack>
  );
}
