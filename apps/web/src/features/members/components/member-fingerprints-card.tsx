import type { Fingerprint, PortalMember } from '@latchkey/shared';
import { Anchor, Button, Divider, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconFingerprint, IconPlus } from '@tabler/icons-react';
import { Fragment } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { ValidityBadge } from '@/components/validity-badge';
import { paths } from '@/config/paths';
import { fingerLabel } from '@/lib/credential-labels';
import { displayName } from '@/lib/session';
import { validityState } from '@/lib/validity';
import { useMemberFingerprints } from '../api/get-member-fingerprints';
import { RecordFingerprintModal } from './record-fingerprint-modal';

const fingerprintTitle = (fingerprint: Fingerprint) =>
  fingerprint.name || `${fingerLabel(fingerprint.finger)} finger`;

function FingerprintRow({ fingerprint }: { fingerprint: Fingerprint }) {
  return (
    <Stack gap={4} py="sm">
      <Group gap="xs" wrap="wrap">
        <Anchor
          component={Link}
          to={paths.app.fingerprint.href(fingerprint._id)}
          fw={600}
          size="sm"
          style={{ overflowWrap: 'anywhere' }}
        >
          {fingerprintTitle(fingerprint)}
        </Anchor>
        {validityState(fingerprint) !== 'active' && (
          <ValidityBadge validFrom={fingerprint.validFrom} validUntil={fingerprint.validUntil} size="sm" />
        )}
      </Group>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {fingerprint.name ? `${fingerLabel(fingerprint.finger)} · ` : ''}at {fingerprint.device.name} ·
        template {fingerprint.templateId}
      </Text>
    </Stack>
  );
}

/** The fingers a person has enrolled (each at one lock), and "Record fingerprint". */
export function MemberFingerprintsCard({ member }: { member: PortalMember }) {
  const fingerprints = useMemberFingerprints(member._id);
  const [recording, { open, close }] = useDisclosure(false);
  const name = displayName(member);

  let body;
  if (fingerprints.isPending) body = <TableSkeleton rows={2} label="Loading fingerprints" />;
  else if (fingerprints.error) {
    body = (
      <QueryError
        title="Could not load the fingerprints"
        error={fingerprints.error}
        onRetry={() => void fingerprints.refetch()}
      />
    );
  } else if (fingerprints.data.length === 0) {
    body = (
      <Stack align="center" gap={6} py="md" ta="center">
        <IconFingerprint size={32} stroke={1.4} aria-hidden="true" color="var(--mantine-color-dimmed)" />
        <Text fw={600}>No fingerprints yet</Text>
        <Text size="sm" c="dimmed">
          A fingerprint opens the one lock it was enrolled at, when {name} may open it.
        </Text>
      </Stack>
    );
  } else {
    body = (
      <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Their fingerprints">
        {fingerprints.data.map((fingerprint, index) => (
          <Fragment key={fingerprint._id}>
            {index > 0 && <Divider component="li" aria-hidden="true" />}
            <li>
              <FingerprintRow fingerprint={fingerprint} />
            </li>
          </Fragment>
        ))}
      </Stack>
    );
  }

  return (
    <SectionCard
      title="Fingerprints"
      description="Fingers enrolled on a lock's reader; each opens only that lock."
      aside={
        <Button
          size="sm"
          variant="light"
          leftSection={<IconPlus size={16} aria-hidden="true" />}
          onClick={open}
        >
          Record fingerprint
        </Button>
      }
      h="100%"
    >
      {body}
      <RecordFingerprintModal
        opened={recording}
        member={member}
        onCancel={close}
        onRecorded={(fingerprint) => {
          close();
          notifications.show({
            color: 'teal',
            title: 'Fingerprint recorded',
            message: `${fingerprintTitle(fingerprint)} opens ${fingerprint.device.name} for ${name}.`,
          });
        }}
      />
    </SectionCard>
  );
}
