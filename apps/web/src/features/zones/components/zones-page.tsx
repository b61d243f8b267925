import type { Zone } from '@latchkey/shared';
import { Anchor, Button, Paper, Stack, Table, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconBuildingCommunity, IconPlus } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { EmptyList } from '@/components/empty-list';
import { FormModal } from '@/components/form-modal';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { TableSkeleton } from '@/components/table-skeleton';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';
import { useCreateZone } from '../api/create-zone';
import { useZones } from '../api/get-zones';
import { ZoneForm } from './zone-form';

const locks = (n: number) => `${n} ${n === 1 ? 'lock' : 'locks'}`;

function ZoneRow({ zone }: { zone: Zone }) {
  return (
    <Table.Tr>
      <Table.Td style={{ paddingInlineStart: `calc(var(--mantine-spacing-md) * ${zone.depth})` }}>
        <Anchor component={Link} to={paths.app.zone.href(zone._id)} fw={600} size="sm">
          {zone.name}
        </Anchor>
        {zone.description && (
          <Text size="xs" c="dimmed" lineClamp={2} maw={420}>
            {zone.description}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{zone.lockCount ?? 0}</Text>
        {zone.totalLockCount !== null && zone.totalLockCount !== zone.lockCount && (
          <Text size="xs" c="dimmed">
            {locks(zone.totalLockCount)} with its sub-zones
          </Text>
        )}
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="sm">{zone.timeZone}</Text>
      </Table.Td>
    </Table.Tr>
  );
}

/** /app/zones (admin): the portal's zones as a tree with their lock counts, and "New zone". */
export function ZonesPage() {
  const navigate = useNavigate();
  const zones = useZones();
  const create = useCreateZone();
  const { data: session } = useSession();
  const [creating, { open, close }] = useDisclosure(false);
  const defaultTimeZone = session?.portal?.timeZone ?? 'UTC';

  const createButton = (
    <Button leftSection={<IconPlus size={18} aria-hidden="true" />} onClick={open}>
      New zone
    </Button>
  );

  let body;
  if (zones.isPending) body = <TableSkeleton label="Loading zones" />;
  else if (zones.error)
    body = (
      <QueryError title="Could not load the zones" error={zones.error} onRetry={() => void zones.refetch()} />
    );
  else if (zones.data.length === 0)
    body = (
      <EmptyList
        invite
        icon={<IconBuildingCommunity size={28} aria-hidden="true" />}
        title="No zones yet"
        description="A zone groups locks by place (a site, a building, a floor): filter lists by it, or lock it out at once."
        action={createButton}
      />
    );
  else
    body = (
      <Paper withBorder radius="lg">
        <Table.ScrollContainer minWidth={320}>
          <Table verticalSpacing="sm" aria-label="Zones">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Zone</Table.Th>
                <Table.Th scope="col">Locks</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">
                  Time zone
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {zones.data.map((zone) => (
                <ZoneRow key={zone._id} zone={zone} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    );

  return (
    <Stack gap="lg">
      <PageHeader
        title="Zones"
        description="The portal's places: sites, buildings and floors, each with its locks."
        aside={createButton}
      />
      {body}
      <FormModal opened={creating} onClose={close} title="New zone">
        <ZoneForm
          zones={zones.data ?? []}
          defaultTimeZone={defaultTimeZone}
          submitLabel="Create zone"
          autoFocus
          pending={create.isPending}
          otherwise="Could not create the zone"
          onCancel={close}
          onSubmit={async (values) => {
            const zone = await create.mutateAsync(values);
            notifications.show({
              color: 'teal',
              title: 'Zone created',
              message: `Now add locks to ${zone.name}.`,
            });
            close();
            void navigate(paths.app.zone.href(zone._id));
          }}
        />
      </FormModal>
    </Stack>
  );
}
