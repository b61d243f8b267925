import { formatMonth, type PublicReviews } from '@latchkey/shared';
import { Group, Paper, Rating, Stack, Text, Title } from '@mantine/core';
import { Stars } from './stars';

/** "November 2026" from '2026-11'. */
const monthName = (month: string) => {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return formatMonth(year, m);
};

/** The published reviews on a listing's public page: the mean, then the newest with the host's answers. */
export function PublicReviewsSection({ reviews }: { reviews: PublicReviews }) {
  if (reviews.count === 0) return null;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="reviews-title">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} fz="lg" id="reviews-title">
          Reviews
        </Title>
        <Group gap={6}>
          <Rating value={reviews.average ?? 0} fractions={10} readOnly size="sm" aria-hidden="true" />
          <Text size="sm">
            {reviews.average?.toFixed(1)} of 5 · {reviews.count} review{reviews.count === 1 ? '' : 's'}
          </Text>
        </Group>
      </Group>
      <Stack gap="md" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        {reviews.items.map((review) => (
          <Stack key={review._id} gap={4} component="li">
            <Group gap="xs">
              <Stars value={review.rating} size="xs" />
              <Text size="sm" fw={600}>
                {review.guestName}
              </Text>
              <Text size="xs" c="dimmed">
                stayed in {monthName(review.stayMonth)}
              </Text>
            </Group>
            {review.text && (
              <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
                {review.text}
              </Text>
            )}
            {review.answer && (
              <Paper bg="var(--mantine-color-default-hover)" p="xs" radius="sm" ml="md">
                <Text size="xs" fw={600}>
                  The host answered
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
                  {review.answer}
                </Text>
              </Paper>
            )}
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}
