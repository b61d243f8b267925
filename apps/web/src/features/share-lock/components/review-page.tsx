import { REVIEW_WINDOW_DAYS, type ReviewInvitation } from '@latchkey/shared';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Radio,
  Rating,
  Skeleton,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { QueryError } from '@/components/query-error';
import { isApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/errors';
import { formatCalendarDate } from '@/lib/format';
import { useReviewInvitation, useSubmitReview } from '../api/public';
import { Stars } from './stars';

const STAR_WORDS = ['', 'Poor', 'Fair', 'Good', 'Very good', 'Excellent'];

function Written({ invitation }: { invitation: ReviewInvitation }) {
  const review = invitation.review!;
  return (
    <Stack gap="sm">
      <Alert
        color="teal"
        variant="light"
        icon={<IconCircleCheck aria-hidden="true" />}
        title="Thank you for your review"
        role="status"
      >
        {review.state === 'published'
          ? 'It is on the listing’s page under your first name.'
          : 'The host has hidden it from the listing’s page.'}
      </Alert>
      <Paper withBorder radius="md" p="md">
        <Stars value={review.rating} />
        {review.text && (
          <Text size="sm" mt="xs" style={{ whiteSpace: 'pre-line' }}>
            {review.text}
          </Text>
        )}
        {review.answer && (
          <Paper bg="var(--mantine-color-default-hover)" p="xs" radius="sm" mt="sm">
            <Text size="xs" fw={600}>
              The host answered
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
              {review.answer}
            </Text>
          </Paper>
        )}
      </Paper>
    </Stack>
  );
}

function ReviewForm({ token, invitation }: { token: string; invitation: ReviewInvitation }) {
  const submit = useSubmitReview(token);
  const [rating, setRating] = useState(0);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      noValidate
      aria-label="Your review"
      onSubmit={(event) => {
        event.preventDefault();
        if (rating === 0) {
          setError('Choose 1 to 5 stars');
          return;
        }
        setError(null);
        submit.mutate({ rating, text }, { onError: (failure) => setError(errorMessage(failure)) });
      }}
    >
      <Stack gap="md">
        <Radio.Group
          label="How was your stay?"
          required
          value={rating > 0 ? String(rating) : null}
          onChange={(value) => setRating(Number(value))}
          error={error && rating === 0 ? error : undefined}
        >
          <Group gap="md" mt={6} wrap="wrap">
            {[1, 2, 3, 4, 5].map((stars) => (
              <Radio key={stars} value={String(stars)} label={`${stars} ★ ${STAR_WORDS[stars]}`} />
            ))}
          </Group>
        </Radio.Group>
        {rating > 0 && <Rating value={rating} readOnly size="lg" aria-hidden="true" />}
        <Textarea
          label="Tell future guests and the host about it"
          description="Optional. Shown with your first name and the month of your stay."
          inputWrapperOrder={['label', 'input', 'description']}
          autosize
          minRows={4}
          maxLength={2000}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
        />
        {error && rating > 0 && (
          <Alert color="red" variant="light" role="alert" title="Your review was not sent">
            {error}
          </Alert>
        )}
        <Button type="submit" loading={submit.isPending} size="md">
          Publish review
        </Button>
        <Text size="xs" c="dimmed">
          Reviews are taken until {formatCalendarDate(invitation.closesOn)}. One per stay.
        </Text>
      </Stack>
    </form>
  );
}

/** /review?t=… (no sign-in): the guest reviews their stay, from the mail after check-out or their account. */
export function ReviewPage() {
  const [params] = useSearchParams();
  const token = params.get('t') ?? '';
  const invitation = useReviewInvitation(token);
  if (
    !token ||
    (invitation.error && isApiError(invitation.error) && [400, 404].includes(invitation.error.status))
  ) {
    return (
      <Alert
        color="gray"
        variant="light"
        icon={<IconInfoCircle aria-hidden="true" />}
        title="This review link does not work"
      >
        Open the link from the mail you got after your stay, or from your stays in the rental center.
      </Alert>
    );
  }
  if (invitation.isPending) {
    return (
      <Stack gap="md" role="status" aria-label="Loading your stay">
        <Skeleton height={30} width="60%" />
        <Skeleton height={200} radius="md" />
      </Stack>
    );
  }
  if (invitation.error) {
    return (
      <QueryError
        title="Could not load your stay"
        error={invitation.error}
        onRetry={() => void invitation.refetch()}
      />
    );
  }
  const data = invitation.data;
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          Your stay at {data.listingTitle}
        </Title>
        <Text size="sm" c="dimmed">
          {data.guestName}, {formatCalendarDate(data.startDate)} – {formatCalendarDate(data.endDate)}
        </Text>
      </Stack>
      {data.review ? (
        <Written invitation={data} />
      ) : data.open ? (
        <Paper withBorder radius="md" p="md">
          <ReviewForm token={token} invitation={data} />
        </Paper>
      ) : (
        <Alert
          color="gray"
          variant="light"
          icon={<IconInfoCircle aria-hidden="true" />}
          title="Reviews are not open"
        >
          {data.reason ?? `Reviews are taken for ${REVIEW_WINDOW_DAYS} days after check-out.`}
        </Alert>
      )}
      {data.listingPath && (
        <Anchor component={Link} to={data.listingPath} size="sm">
          See {data.listingTitle} and its reviews
        </Anchor>
      )}
    </Stack>
  );
}
