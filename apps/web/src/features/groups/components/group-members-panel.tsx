import { ActionIcon, Anchor, Badge, Divider, Group, Stack, Text, Tooltip } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import { IconX } from '@tabler/icons-react';
import { Fragment, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { AddPicker, type PickerOption } from '@/components/add-picker';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';

export interface PanelItem {
  _id: string;
  label: string;
  detail?: string;
  to: string;
}

interface GroupMembersPanelProps {
  title: string;
  description: string;
  icon: Icon;
  /** What is in the group; undefined while loading. */
  items: PanelItem[] | undefined;
  error: unknown;
  onRetry: () => void;
  emptyTitle: string;
  emptyText: string;
  picker: {
    label: string;
    placeholder: string;
    options: PickerOption[];
    loading: boolean;
    actionLabel: string;
    allInText: ReactNode;
    nothingFound: string;
  };
  onAdd: (id: string) => Promise<unknown>;
  onRemove: (item: PanelItem) => Promise<unknown>;
  /** "Remove Grace Hopper from the group" */
  removeLabel: (item: PanelItem) => string;
}

/** One side of a group (its people, or its locks): the list, add from what is not in yet, remove. */
export function GroupMembersPanel({
  title,
  description,
  icon: ItemIcon,
  items,
  error,
  onRetry,
  emptyTitle,
  emptyText,
  picker,
  onAdd,
  onRemove,
  removeLabel,
}: GroupMembersPanelProps) {
  const [removing, setRemoving] = useState<string | null>(null);

  const remove = async (item: PanelItem) => {
    setRemoving(item._id);
    try {
      await onRemove(item);
    } catch {
      // The caller tells the person what went wrong.
    } finally {
      setRemoving(null);
    }
  };

  let list;
  if (error)
    list = <QueryError title={`Could not load the ${title.toLowerCase()}`} error={error} onRetry={onRetry} />;
  else if (!items) list = <TableSkeleton rows={3} label={`Loading ${title.toLowerCase()}`} />;
  else if (items.length === 0) {
    list = (
      <Stack align="center" gap={6} py="lg" ta="center">
        <ItemIcon size={32} stroke={1.4} aria-hidden="true" color="var(--mantine-color-dimmed)" />
        <Text fw={600}>{emptyTitle}</Text>
        <Text size="sm" c="dimmed">
          {emptyText}
        </Text>
      </Stack>
    );
  } else {
    list = (
      <Stack gap={0} component="ul" m={0} p={0} aria-label={title} style={{ listStyle: 'none' }}>
        {items.map((item, index) => (
          <Fragment key={item._id}>
            {index > 0 && <Divider component="li" aria-hidden="true" />}
            <li>
              <Group justify="space-between" gap="sm" py="xs" wrap="nowrap">
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Anchor component={Link} to={item.to} fw={600} size="sm" truncate="end">
                    {item.label}
                  </Anchor>
                  {item.detail && (
                    <Text size="xs" c="dimmed" truncate="end">
                      {item.detail}
                    </Text>
                  )}
                </Stack>
                <Tooltip label="Remove from the group">
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    onClick={() => void remove(item)}
                    loading={removing === item._id}
                    aria-label={removeLabel(item)}
                  >
                    <IconX size={16} aria-hidden="true" />
                  </ActionIcon>
                </Tooltip>
              </Group>
            </li>
          </Fragment>
        ))}
      </Stack>
    );
  }

  return (
    <SectionCard
      title={title}
      description={description}
      aside={
        items && (
          <Badge variant="light" size="lg">
            {items.length}
          </Badge>
        )
      }
      h="100%"
    >
      <Stack gap="md">
        <AddPicker
          label={picker.label}
          placeholder={picker.placeholder}
          options={picker.options}
          actionLabel={picker.actionLabel}
          nothingFound={picker.nothingFound}
          loading={picker.loading}
          onAdd={onAdd}
          emptyText={
            !picker.loading && (
              <Text size="sm" c="dimmed">
                {picker.allInText}
              </Text>
            )
          }
        />
        <Divider />
        {list}
      </Stack>
    </SectionCard>
  );
}
