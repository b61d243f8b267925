import { Button, type PaperProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/lib/errors';
import { ConfirmDialog } from './confirm-dialog';
import { SectionCard } from './section-card';

interface DeleteRecordCardProps extends Pick<PaperProps, 'h'> {
  /** What the record is, in lower case: "zone" makes "Delete zone", "Zone deleted". */
  noun: string;
  /** The record's name: the dialog asks "Delete {name}?". */
  name: string;
  /** Under the card's title: what deleting does. */
  description: ReactNode;
  /** In the dialog: what will happen to what the record holds. */
  consequence: ReactNode;
  /** Deletes the record; a rejection is shown and the dialog stays. */
  remove: () => Promise<unknown>;
  pending: boolean;
  /** The list to go back to once it is deleted. */
  listHref: string;
  /** The record's own query, dropped once it is gone (it would answer 404 if refetched). */
  detailKey: QueryKey;
}

/** A record page's danger zone: a red card whose button asks, deletes, and goes back to the list. */
export function DeleteRecordCard({
  noun,
  name,
  description,
  consequence,
  remove,
  pending,
  listHref,
  detailKey,
  h,
}: DeleteRecordCardProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, { open, close }] = useDisclosure(false);
  const action = `Delete ${noun}`;

  const confirmDelete = async () => {
    try {
      await remove();
      close();
      const title = `${noun.charAt(0).toUpperCase()}${noun.slice(1)} deleted`;
      notifications.show({ color: 'teal', title, message: `${name} was deleted.` });
      await navigate(listHref);
      queryClient.removeQueries({ queryKey: detailKey });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: `Could not delete the ${noun}`,
        message: errorMessage(error),
      });
    }
  };

  return (
    <SectionCard danger title={action} description={description} h={h}>
      <Button
        color="red"
        variant="light"
        leftSection={<IconTrash size={16} aria-hidden="true" />}
        onClick={open}
      >
        {action}
      </Button>
      <ConfirmDialog
        opened={confirming}
        onClose={close}
        title={`Delete ${name}?`}
        confirmLabel={action}
        loading={pending}
        onConfirm={() => void confirmDelete()}
      >
        {consequence}
      </ConfirmDialog>
    </SectionCard>
  );
}
