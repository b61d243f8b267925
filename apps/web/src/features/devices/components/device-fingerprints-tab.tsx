import type { Device, Fingerprint } from '@latchkey/shared';
import { Anchor, Badge, Divider, Group, Stack, Text } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { paths } from '@/config/paths';
import { fingerLabel } from '@/lib/credential-labels';
import { formatValidity } from '@/lib/format';
import { useDeviceFingerprints } from '../api/get-device-fingerprints';

function FingerprintRow({
  fingerprint,
  now,
  timeZone,
}: {
  fingerprint: Fingerprint;
  now: number;
  timeZone: string;
}) {
  const expired = fingerprint.validUntil !== null && new Date(fingerprint.validUntil).getTime() <= now;
  const { holder } = fingerprint;
  return (
    <Group justify="space-between" align="flex-start" gap="sm" py="sm" wrap="wrap">
      <Stack gap={4} style={{ flex: '1 1 220px', minWidth: 0 }}>
        <Group gap="xs" wrap="wrap">
          <Anchor component={Link} to={paths.app.fingerprint.href(fingerprint._id)} fw={600} size="sm">
            {fingerprint.name || fingerLabel(fingerprint.finger)}
          </Anchor>
          {expired && (
            <Badge color="gray" variant="light" size="sm">
              Expired
            </Badge>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {fingerprint.name ? `${fingerLabel(fingerprint.finger)} · ` : ''}Template {fingerprint.templateId}
        </Text>
      </Stack>
      <Stack gap={4} style={{ flex: '1 1 220px', minWidth: 0 }}>
        {holder ? (
          <Anchor component={Link} to={paths.app.member.href(holder._id)} size="sm">
            {holder.name || holder.email}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            Nobody holds it
          </Text>
        )}
        <Text size="xs" c="dimmed">
          Valid: {formatValidity(fingerprint.validFrom, fingerprint.validUntil, timeZone, { zone: true })}
        </Text>
      </Stack>
    </Group>
  );
}

/** The Fingerprints tab: the fingers enrolled on this lock's reader, each opening its own screen. */
export function DeviceFingerprintsTab({ device }: { device: Device }) {
  const { data, error, isPending, refetch } = useDeviceFingerprints(device._id);
  const [now] = useState(() => Date.now());

  let body;
  if (isPending) body = <TableSkeleton rows={3} label="Loading fingerprints" />;
  else if (error) {
    body = (
      <QueryError title="Could not load the fingerprints" error={error} onRetry={() => void refetch()} />
    );
  } else if (data.length === 0) {
    body = (
      <Stack align="center" gap={6} py="lg" ta="center">
        <IconFingerprint size={32} stroke={1.4} aria-hidden="true" color="var(--mantine-color-dimmed)" />
        <Text fw={600}>No fingerprints at this lock</Text>
        <Text size="sm" c="dimmed" maw={420}>
          A finger enrolled on this lock&apos;s reader shows here once it is recorded for a person who may
          open the lock.
        </Text>
      </Stack>
    );
  } else {
    body = (
      <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Fingerprints">
        {data.map((fingerprint, index) => (
          <Fragment key={fingerprint._id}>
            {index > 0 && <Divider component="li" aria-hidden="true" />}
            <li>
              <FingerprintRow fingerprint={fingerprint} now={now} timeZone={device.timeZone} />
            </li>
          </Fragment>
        ))}
      </Stack>
    );
  }

  return (
    <SectionCard
      title="Fingerprints"
      description="Fingers enrolled on this lock's reader and who they belong to. Open one to change it."
    >
      {body}
    </SectionCard>
  );
}
