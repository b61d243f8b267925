import { REVIEW_STATES, type Review } from '@latchkey/shared';
import { Badge, Button, Group, Modal, Paper, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEye, IconEyeOff, IconMessage, IconStar } from '@tabler/icons-react';
import { useState } from 'react';
import { EmptyList, NoMatchList } from '@/components/empty-list';
import { ListPagination } from '@/components/list-pagination';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { accessibleClearButton } from '@/lib/clear-button';
import { errorMessage } from '@/lib/errors';
import { formatCalendarDate, formatRelative } from '@/lib/format';
import { useListingReviews, useModerateReview } from '../api/reviews';
import { Stars } from '@/features/share-lock/components/stars';

const PAGE = 5;
const STATE_LABELS = { published: 'Published', hidden: 'Hidden' } as const;

function ReviewCard({ listingId, review }: { listingId: string; review: Review }) {
  const moderate = useModerateReview(listingId);
  const [answer, setAnswer] = useState(review.answer ?? '');
  const [answering, setAnswering] = useState(false);
  const [hiding, setHiding] = useState(false);
  const [reason, setReason] = useState('');
  const act = (action: Parameters<typeof moderate.mutate>[0]['action'], done: string, after?: () => void) =>
    moderate.mutate(
      { reviewId: review._id, action },
      {
        onSuccess: () => {
          after?.();
          notifications.show({ color: 'teal', title: done, message: `${review.guestName}'s review` });
        },
        onError: (error) =>
          notifications.show({
            color: 'red',
            title: 'Could not change the review',
            message: errorMessage(error),
          }),
      },
    );
  return (
    <Paper withBorder radius="md" p="sm" component="li">
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs">
            <Stars value={review.rating} size="sm" />
            <Text fw={600} size="sm">
              {review.guestName}
            </Text>
            <Text size="xs" c="dimmed">
              stayed {formatCalendarDate(review.stayStartDate)} – {formatCalendarDate(review.stayEndDate)} ·
              wrote {formatRelative(review.createdAt)}
            </Text>
          </Group>
          <Badge color={review.state === 'published' ? 'teal' : 'gray'} variant="light">
            {STATE_LABELS[review.state]}
          </Badge>
        </Group>
        {review.text ? (
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            {review.text}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            Stars only, no words.
          </Text>
        )}
        {review.state === 'hidden' && review.hiddenReason && (
          <Text size="xs" c="dimmed">
            Hidden: {review.hiddenReason}
          </Text>
        )}
        {review.answer && !answering && (
          <Paper bg="var(--mantine-color-default-hover)" p="xs" radius="sm">
            <Text size="xs" fw={600}>
              Your answer
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
              {review.answer}
            </Text>
          </Paper>
        )}
        {answering ? (
          <Stack gap="xs">
            <Textarea
              label="Your answer"
              description="Shown under the review on the listing's page. Empty takes the answer back."
              autosize
              minRows={2}
              maxLength={2000}
              value={answer}
              onChange={(event) => setAnswer(event.currentTarget.value)}
            />
            <Group gap="xs" justify="flex-end">
              <Button size="xs" variant="default" onClick={() => setAnswering(false)}>
                Cancel
              </Button>
              <Button
                size="xs"
                loading={moderate.isPending}
                onClick={() =>
                  act({ action: 'answer', answer }, answer ? 'Answer saved' : 'Answer taken back', () =>
                    setAnswering(false),
                  )
                }
              >
                Save answer
              </Button>
            </Group>
          </Stack>
        ) : (
          <Group gap="xs">
            <Button
              size="xs"
              variant="subtle"
              leftSection={<IconMessage size={14} aria-hidden="true" />}
              onClick={() => setAnswering(true)}
            >
              {review.answer ? 'Change answer' : 'Answer'}
            </Button>
            {review.state === 'published' ? (
              <Button
                size="xs"
                variant="subtle"
                color="red"
                leftSection={<IconEyeOff size={14} aria-hidden="true" />}
                onClick={() => setHiding(true)}
              >
                Hide
              </Button>
            ) : (
              <Button
                size="xs"
                variant="subtle"
                leftSection={<IconEye size={14} aria-hidden="true" />}
                loading={moderate.isPending}
                onClick={() => act({ action: 'publish' }, 'Review shown again')}
              >
                Show again
              </Button>
            )}
          </Group>
        )}
      </Stack>
      <Modal opened={hiding} onClose={() => setHiding(false)} title={`Hide ${review.guestName}'s review?`}>
        <Stack gap="sm">
          <Text size="sm">
            It leaves the listing's public page. You can show it again later; the change log keeps why.
          </Text>
          <TextInput
            label="Why"
            placeholder="Insults, someone else's private details…"
            maxLength={300}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            data-autofocus
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setHiding(false)}>
              Keep it
            </Button>
            <Button
              color="red"
              disabled={reason.trim() === ''}
              loading={moderate.isPending}
              onClick={() => act({ action: 'hide', reason }, 'Review hidden', () => setHiding(false))}
            >
              Hide review
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

/** A listing's reviews: answer them, hide abusive ones. */
export function ReviewsSection({ listingId }: { listingId: string }) {
  const [page, setPage] = useState(1);
  const [state, setState] = useState<string | null>(null);
  const reviews = useListingReviews(listingId, {
    skip: (page - 1) * PAGE,
    limit: PAGE,
    sortBy: 'createdAt',
    descending: true,
    ...(state ? { filterBy: 'state' as const, filterValue: state } : {}),
  });
  return (
    <SectionCard
      title="Reviews"
      description="Guests review their stay after check-out. Published reviews show on the request page."
    >
      <Group mb="md">
        <Select
          label="Shown"
          placeholder="All reviews"
          data={REVIEW_STATES.map((value) => ({ value, label: STATE_LABELS[value] }))}
          value={state}
          onChange={(value) => {
            setState(value);
            setPage(1);
          }}
          clearable
          clearButtonProps={accessibleClearButton('Clear shown')}
          w={200}
        />
      </Group>
      {reviews.isPending ? (
        <TableSkeleton label="Loading reviews" />
      ) : reviews.error ? (
        <QueryError
          title="Could not load the reviews"
          error={reviews.error}
          onRetry={() => void reviews.refetch()}
        />
      ) : reviews.data.total === 0 && !state ? (
        <EmptyList
          icon={<IconStar size={28} aria-hidden="true" />}
          title="No reviews yet"
          description="Guests get a link to review their stay by mail after check-out."
        />
      ) : reviews.data.items.length === 0 ? (
        <NoMatchList
          title="Nothing here"
          description="No review is hidden."
          showAll="Show all reviews"
          onShowAll={() => setState(null)}
        />
      ) : (
        <>
          <Stack
            gap="xs"
            component="ul"
            m={0}
            p={0}
            style={{ listStyle: 'none', opacity: reviews.isPlaceholderData ? 0.6 : 1 }}
          >
            {reviews.data.items.map((review) => (
              <ReviewCard key={`${review._id}-${review.updatedAt}`} listingId={listingId} review={review} />
            ))}
          </Stack>
          <ListPagination
            page={page}
            pageSize={PAGE}
            total={reviews.data.total}
            onChange={setPage}
            noun={reviews.data.total === 1 ? 'review' : 'reviews'}
          />
        </>
      )}
    </SectionCard>
  );
}
