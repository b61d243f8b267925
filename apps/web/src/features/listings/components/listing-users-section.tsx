import type { Listing } from '@latchkey/shared';
import { ActionIcon, Button, Group, List, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { PersonSelect } from '@/features/people-picker/components/person-select';
import { SectionCard } from '@/components/section-card';
import { errorMessage } from '@/lib/errors';
import { useAddListingUser, useRemoveListingUser } from '../api/listing-users';

/** The people of the portal who look after the listing: its request mails go to them. */
export function ListingUsersSection({ listing }: { listing: Listing }) {
  const add = useAddListingUser();
  const remove = useRemoveListingUser();
  const [chosen, setChosen] = useState<string | null>(null);
  return (
    <SectionCard
      title="Who looks after it"
      description="They get a mail for each new request. With nobody here, the portal's admins do."
    >
      <Stack gap="md">
        {listing.users.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nobody: requests go to the admins.
          </Text>
        ) : (
          <List spacing={4} listStyleType="none" aria-label="People who look after the listing">
            {listing.users.map((user) => (
              <List.Item key={user._id}>
                <Group gap="xs" wrap="nowrap">
                  <Text size="sm">
                    {user.name}{' '}
                    <Text span size="xs" c="dimmed">
                      {user.email}
                    </Text>
                  </Text>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="sm"
                    aria-label={`Stop sending ${user.name} the requests`}
                    loading={remove.isPending && remove.variables?.userId === user._id}
                    onClick={() =>
                      remove.mutate(
                        { listingId: listing._id, userId: user._id },
                        {
                          onError: (error) =>
                            notifications.show({
                              color: 'red',
                              title: 'Could not remove',
                              message: errorMessage(error),
                            }),
                        },
                      )
                    }
                  >
                    <IconX size={14} aria-hidden="true" />
                  </ActionIcon>
                </Group>
              </List.Item>
            ))}
          </List>
        )}
        <Group gap="sm" align="flex-end">
          <PersonSelect
            label="Add a person"
            placeholder="Name or email"
            value={chosen}
            onChange={(userId) => setChosen(userId)}
            exclude={listing.users.map((u) => u._id)}
            style={{ flex: '1 1 220px' }}
          />
          <Button
            variant="default"
            disabled={!chosen}
            loading={add.isPending}
            onClick={() =>
              chosen &&
              add.mutate(
                { listingId: listing._id, userId: chosen },
                {
                  onSuccess: () => setChosen(null),
                  onError: (error) =>
                    notifications.show({
                      color: 'red',
                      title: 'Could not add',
                      message: errorMessage(error),
                    }),
                },
              )
            }
          >
            Add
          </Button>
        </Group>
      </Stack>
    </SectionCard>
  );
}
