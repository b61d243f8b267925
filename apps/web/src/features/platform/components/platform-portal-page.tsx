import type { PlatformPortalDetail } from '@latchkey/shared';
import { Alert, Badge, Group, List, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconHeadset } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { RecordPage } from '@/components/record-page';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { formatDateTime, formatRelative, formatTime } from '@/lib/format';
import { usePlatformPortal } from '../api/get-platform-portal';
import { ActInPortalButton } from './act-in-portal-button';
import { PortalFlagsCard } from './portal-flags-card';
import { StandingBadge } from './standing-badge';

/** /app/platform/portals/:portalId (platform staff): a customer's portal at a glance, and acting in it. */
export function PlatformPortalPage() {
  const { portalId = '' } = useParams();
  const query = usePlatformPortal(portalId);
  return (
    <RecordPage
      query={query}
      noun="portal"
      back={{ to: paths.app.platform.href(), label: 'Platform console' }}
      header={(portal) => ({
        title: portal.name,
        description: `Owned by ${portal.owner.email}${portal.reseller ? ` · customer of ${portal.reseller.companyName}` : ''}`,
        aside: <ActInPortalButton portal={portal} />,
      })}
    >
      {(portal) => <PortalDetail portal={portal} />}
    </RecordPage>
  );
}

function Figure({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="lg" fw={600} component="div">
        {children}
      </Text>
    </Stack>
  );
}

function PortalDetail({ portal }: { portal: PlatformPortalDetail }) {
  return (
    <Stack gap="lg">
      {portal.supportSessions.map((session) => (
        <Alert
          key={session._id}
          color="orange"
          icon={<IconHeadset size={18} aria-hidden="true" />}
          title="Support is acting here"
        >
          {session.staff.email} acts as {session.person.email} until{' '}
          {formatTime(session.expiresAt, portal.timeZone)} ({portal.timeZone}).
        </Alert>
      ))}
      <SectionCard title="At a glance">
        <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }} spacing="lg">
          <Figure label="Plan">
            <StandingBadge portal={portal} />
          </Figure>
          <Figure label="Locks">{portal.lockCount}</Figure>
          <Figure label="Online">{portal.locksOnline}</Figure>
          <Figure label="Offline">{portal.locksOffline}</Figure>
          <Figure label="People">{portal.peopleCount}</Figure>
          <Figure label="Last activity">
            {portal.lastActivityAt ? (
              <time
                dateTime={portal.lastActivityAt}
                title={formatDateTime(portal.lastActivityAt, portal.timeZone)}
              >
                {formatRelative(portal.lastActivityAt)}
              </time>
            ) : (
              'None yet'
            )}
          </Figure>
        </SimpleGrid>
      </SectionCard>

      <SectionCard title="Open problems">
        {portal.problems.length === 0 ? (
          <Group gap="xs">
            <IconCircleCheck size={18} color="var(--mantine-color-teal-filled)" aria-hidden="true" />
            <Text size="sm">Nothing wants a look.</Text>
          </Group>
        ) : (
          <List
            spacing="sm"
            icon={
              <IconAlertTriangle size={18} color="var(--mantine-color-orange-filled)" aria-hidden="true" />
            }
          >
            {portal.problems.map((problem) => (
              <List.Item key={problem.kind}>
                <Text size="sm" fw={600}>
                  {problem.title}
                </Text>
                <Text size="sm" c="dimmed">
                  {problem.detail}
                </Text>
              </List.Item>
            ))}
          </List>
        )}
      </SectionCard>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <SectionCard title="Admins" description="Who runs this portal; the owner first.">
          <Stack gap="xs">
            {portal.admins.map((admin) => (
              <Group key={admin._id} gap="xs" wrap="nowrap">
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {`${admin.firstName} ${admin.lastName}`.trim() || admin.email}{' '}
                  <Text span size="sm" c="dimmed">
                    {admin.email}
                  </Text>
                </Text>
                {admin.owner && (
                  <Badge size="sm" variant="light">
                    Owner
                  </Badge>
                )}
              </Group>
            ))}
          </Stack>
        </SectionCard>
        <SectionCard
          title="Recent changes"
          description={`The portal's change log, newest first (${portal.timeZone}).`}
        >
          {portal.recentChanges.length === 0 ? (
            <Text size="sm" c="dimmed">
              No changes yet.
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={360}>
              <Table verticalSpacing={6} fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>When</Table.Th>
                    <Table.Th>What</Table.Th>
                    <Table.Th>Who</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {portal.recentChanges.map((change) => (
                    <Table.Tr key={change._id}>
                      <Table.Td>
                        <time dateTime={change.createdAt}>
                          {formatDateTime(change.createdAt, portal.timeZone)}
                        </time>
                      </Table.Td>
                      <Table.Td>{change.action}</Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>
                        {change.actorEmail ?? 'System'}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </SectionCard>
      </SimpleGrid>

      <PortalFlagsCard portalId={portal._id} />
    </Stack>
  );
}
