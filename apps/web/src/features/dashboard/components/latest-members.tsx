import type { PortalMember } from '@latchkey/shared';
import { Anchor, Group, Paper, Skeleton, Stack, Table, Text, ThemeIcon, Title } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import { MemberSince, MemberStatusBadge, RoleBadge } from '@/components/member-badges';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { displayName } from '@/lib/session';
import { useLatestMembers } from '../api/latest-members';
import classes from './latest-members.module.css';

const NO_WRAP = { whiteSpace: 'nowrap' } as const;

function MemberRow({ member }: { member: PortalMember }) {
  const name = displayName(member);
  return (
    <Table.Tr>
      <Table.Td className={classes.name}>
        <Anchor
          component={Link}
          to={paths.app.member.href(member._id)}
          size="sm"
          fw={600}
          truncate="end"
          display="block"
          title={name}
        >
          {name}
        </Anchor>
        {name !== member.email && (
          <Text size="xs" c="dimmed" truncate="end" title={member.email}>
            {member.email}
          </Text>
        )}
        {/* In a narrow table the role and status ride along under the name instead of in columns. */}
        <div className={classes.narrow}>
          <Group gap={6} mt={6}>
            <RoleBadge member={member} />
            <MemberStatusBadge status={member.status} />
          </Group>
        </div>
      </Table.Td>
      <Table.Td className={classes.wide} style={NO_WRAP}>
        <RoleBadge member={member} />
      </Table.Td>
      <Table.Td className={classes.wide} style={NO_WRAP}>
        <MemberStatusBadge status={member.status} />
      </Table.Td>
      <Table.Td style={NO_WRAP}>
        <MemberSince member={member} />
      </Table.Td>
    </Table.Tr>
  );
}

/** The five people who joined the portal last (GET portal/users). */
export function LatestMembers() {
  const { data, error, isPending, refetch } = useLatestMembers();

  let body;
  if (isPending) {
    body = (
      <Stack gap="sm" aria-label="Loading members" role="status">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={36} radius="sm" />
        ))}
      </Stack>
    );
  } else if (error) {
    body = <QueryError title="Could not load the members" error={error} onRetry={() => void refetch()} />;
  } else if (data.items.length === 0) {
    body = (
      <Stack align="center" gap="xs" py="lg" ta="center">
        <ThemeIcon size={44} radius="xl" variant="light" aria-hidden="true">
          <IconUsers size={24} />
        </ThemeIcon>
        <Text fw={600}>No members yet</Text>
        <Text size="sm" c="dimmed">
          People you invite to the portal will show up here.
        </Text>
      </Stack>
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={300} className={classes.container}>
        <Table verticalSpacing="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col" className={classes.wide}>
                Role
              </Table.Th>
              <Table.Th scope="col" className={classes.wide}>
                Status
              </Table.Th>
              <Table.Th scope="col">Joined</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.items.map((member) => (
              <MemberRow key={member._id} member={member} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="latest-members"
    >
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="lg" id="latest-members">
          Latest members
        </Title>
        {data && data.total > 0 && (
          <Text size="sm" c="dimmed">
            {data.items.length} of {data.total}
          </Text>
        )}
      </Group>
      {body}
    </Paper>
  );
}
