import { Badge, Group, Text } from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

interface AccessViaProps {
  via: { direct: boolean; groups: readonly { _id: string; name: string }[] };
}

/** How a person reaches a lock: "Direct" and/or one badge per group (linking to the group). */
export function AccessVia({ via }: AccessViaProps) {
  if (!via.direct && via.groups.length === 0) {
    return (
      <Text size="xs" c="dimmed">
        No access
      </Text>
    );
  }
  return (
    <Group gap={6} wrap="wrap">
      {via.direct && (
        <Badge variant="light" color="latchkey" title="Given access directly" tt="none">
          Direct
        </Badge>
      )}
      {via.groups.map((group) => (
        <Badge
          key={group._id}
          component={Link}
          to={paths.app.group.href(group._id)}
          variant="outline"
          color="grape"
          leftSection={<IconUsersGroup size={12} aria-hidden="true" />}
          tt="none"
          style={{ cursor: 'pointer' }}
          aria-label={`Through group ${group.name}`}
        >
          {group.name}
        </Badge>
      ))}
    </Group>
  );
}
