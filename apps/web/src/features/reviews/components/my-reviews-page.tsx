import type { MyReviews, OwnReview, Review } from '@latchkey/shared';
import { Anchor, Badge, Button, Group, Paper, Skeleton, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMessage, IconStar } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyList } from '@/components/empty-list';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { useModerateReview } from '@/features/listings/api/reviews';
import { Stars } from '@/features/share-lock/components/stars';
import { errorMessage } from '@/lib/errors';
import { formatCalendarDate, formatRelative } from '@/lib/format';
import { myReviewsQueryOptions, useMyReviews } from '../api/get-my-reviews';

const LIST_STYLE = { listStyle: 'none', padding: 0, margin: 0 } as const;

/** The host's answer (or the guest's view of it) under a review. */
function Answer({ label, text }: { label: string; text: string }) {
  return (
    <Paper bg="var(--mantine-color-default-hover)" p="xs" radius="sm">
      <Text size="xs" fw={600}>
        {label}
      </Text>
      <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
        {text}
      </Text>
    </Paper>
  );
}

function ReviewText({ text }: { text: string }) {
  return text ? (
    <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
      {text}
    </Text>
  ) : (
    <Text size="sm" c="dimmed">
      Stars only, no words.
    </Text>
  );
}

function ToReview({ stays }: { stays: MyReviews['toReview'] }) {
  return (
    <SectionCard
      title="Stays to review"
      description="Stays you kept as a guest that are over. Each can be reviewed once, until the date shown."
    >
      {stays.length === 0 ? (
        <Text size="sm" c="dimmed">
          No stay is waiting for your review.
        </Text>
      ) : (
        <Stack component="ul" gap="sm" style={LIST_STYLE} aria-label="Stays to review">
          {stays.map((stay) => (
            <Paper component="li" key={stay.stayId} withBorder radius="md" p="sm">
              <Group justify="space-between" gap="sm" wrap="wrap">
                <Stack gap={2}>
                  <Text fw={600}>{stay.listingTitle}</Text>
                  <Text size="sm" c="dimmed">
                    {formatCalendarDate(stay.startDate)} – {formatCalendarDate(stay.endDate)} · reviews close{' '}
                    {formatCalendarDate(stay.closesOn)}
                  </Text>
                </Stack>
                {/* The review page the mail after check-out links to (a blank-layout page). */}
                <Button
                  component={Link}
                  to={stay.reviewPath}
                  leftSection={<IconStar size={16} aria-hidden="true" />}
                  aria-label={`Write a review of ${stay.listingTitle}`}
                >
                  Write a review
                </Button>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}

function WrittenCard({ review }: { review: OwnReview }) {
  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Group gap="xs">
            <Stars value={review.rating} size="sm" />
            <Text fw={600} size="sm">
              {review.listingTitle}
            </Text>
            <Text size="xs" c="dimmed">
              stayed {formatCalendarDate(review.stayStartDate)} – {formatCalendarDate(review.stayEndDate)} ·
              wrote {formatRelative(review.createdAt)}
            </Text>
          </Group>
          {review.state === 'hidden' && (
            <Badge color="gray" variant="light">
              Hidden by the host
            </Badge>
          )}
        </Group>
        <ReviewText text={review.text} />
        {review.answer && <Answer label="The host's answer" text={review.answer} />}
      </Stack>
    </Paper>
  );
}

function HostedCard({ review }: { review: Review & { listingTitle: string } }) {
  const queryClient = useQueryClient();
  const moderate = useModerateReview(review.listingId);
  const [answering, setAnswering] = useState(false);
  const [answer, setAnswer] = useState(review.answer ?? '');
  const save = () =>
    moderate.mutate(
      { reviewId: review._id, action: { action: 'answer', answer } },
      {
        onSuccess: () => {
          setAnswering(false);
          void queryClient.invalidateQueries({ queryKey: myReviewsQueryOptions().queryKey });
          notifications.show({
            color: 'teal',
            title: answer ? 'Answer saved' : 'Answer taken back',
            message: `${review.guestName}'s review`,
          });
        },
        onError: (error) =>
          notifications.show({
            color: 'red',
            title: 'Could not save the answer',
            message: errorMessage(error),
          }),
      },
    );
  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Group gap="xs">
            <Stars value={review.rating} size="sm" />
            <Text fw={600} size="sm">
              {review.guestName}
            </Text>
            <Text size="xs" c="dimmed">
              on{' '}
              <Anchor component={Link} to={paths.app.listing.href(review.listingId)} size="xs">
                {review.listingTitle}
              </Anchor>{' '}
              · wrote {formatRelative(review.createdAt)}
            </Text>
          </Group>
          <Badge color={review.state === 'published' ? 'teal' : 'gray'} variant="light">
            {review.state === 'published' ? 'Published' : 'Hidden'}
          </Badge>
        </Group>
        <ReviewText text={review.text} />
        {review.answer && !answering && <Answer label="Your answer" text={review.answer} />}
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
              <Button size="xs" loading={moderate.isPending} onClick={save}>
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
              aria-label={`${review.answer ? 'Change your answer to' : 'Answer'} ${review.guestName}'s review`}
            >
              {review.answer ? 'Change answer' : 'Answer'}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * /app/review (any signed-in person; the brief's `review`): the stays they may review, the reviews
 * they wrote, and for a portal admin the newest reviews of its listings, to answer in place (hiding
 * one is on the listing's page).
 */
export function MyReviewsPage() {
  const { data, error, isPending, refetch } = useMyReviews();
  const header = (
    <PageHeader title="Reviews" description="Reviews of the stays you kept, and of the listings you host." />
  );
  if (isPending) {
    return (
      <Stack gap="lg" role="status" aria-label="Loading your reviews">
        {header}
        <Skeleton height={120} radius="lg" />
        <Skeleton height={160} radius="lg" />
      </Stack>
    );
  }
  if (error) {
    return (
      <Stack gap="lg">
        {header}
        <QueryError title="Could not load your reviews" error={error} onRetry={() => void refetch()} />
      </Stack>
    );
  }
  const hosting = data.hosting;
  return (
    <Stack gap="lg" maw={960}>
      {header}
      <ToReview stays={data.toReview} />
      <SectionCard title="Reviews you wrote">
        {data.written.length === 0 ? (
          <Text size="sm" c="dimmed">
            You have not reviewed a stay yet.
          </Text>
        ) : (
          <Stack component="ul" gap="sm" style={LIST_STYLE} aria-label="Reviews you wrote">
            {data.written.map((review) => (
              <WrittenCard key={review._id} review={review} />
            ))}
          </Stack>
        )}
      </SectionCard>
      {hosting && (
        <SectionCard
          title="Reviews of your listings"
          description={
            hosting.total > hosting.items.length
              ? `The newest ${hosting.items.length} of ${hosting.total} in ${hosting.portalName}; each listing's page has all of them.`
              : `Guests' reviews of the listings in ${hosting.portalName}.`
          }
        >
          {hosting.items.length === 0 ? (
            <EmptyList
              icon={<IconStar size={28} aria-hidden="true" />}
              title="No reviews yet"
              description="Guests can review a stay from the day they check out; their reviews show up here."
              action={
                <Button component={Link} to={paths.app.listings.href()} variant="default">
                  Your listings
                </Button>
              }
            />
          ) : (
            <Stack component="ul" gap="sm" style={LIST_STYLE} aria-label="Reviews of your listings">
              {hosting.items.map((review) => (
                <HostedCard key={review._id} review={review} />
              ))}
            </Stack>
          )}
        </SectionCard>
      )}
    </Stack>
  );
}
