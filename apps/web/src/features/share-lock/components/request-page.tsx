import {
  describeNightlyPrice,
  describeQuote,
  nightsBetween,
  quoteStay,
  stayRequestInputSchema,
  type PublicListing,
} from '@latchkey/shared';
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCircleCheck, IconClock, IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useParams } from 'react-router';
import { QueryError } from '@/components/query-error';
import { isApiError } from '@/lib/api-client';
import { formatCalendarDate } from '@/lib/format';
import { formResolver, useFormMutation } from '@/lib/forms';
import { usePublicListing, useRequestStay } from '../api/public';
import { AvailabilityCalendar } from './availability-calendar';
import { ImageCarousel } from './image-carousel';
import { PublicReviewsSection } from './public-reviews';

interface RequestValues {
  name: string;
  email: string;
  phone: string;
  note: string;
  startDate: string;
  endDate: string;
}

const LABELS: Record<keyof RequestValues, string> = {
  name: 'Your name',
  email: 'Email',
  phone: 'Phone',
  note: 'A note for the host',
  startDate: 'Arrival',
  endDate: 'Departure',
};

const validate = formResolver<RequestValues>(stayRequestInputSchema, LABELS);

function RequestForm({ listing }: { listing: PublicListing }) {
  const request = useRequestStay(listing._id);
  const [receipt, setReceipt] = useState<{ message: string; approved: boolean } | null>(null);
  const form = useForm<RequestValues>({
    mode: 'controlled',
    initialValues: { name: '', email: '', phone: '', note: '', startDate: '', endDate: '' },
    validate,
  });
  const nights =
    form.values.startDate && form.values.endDate && form.values.endDate > form.values.startDate
      ? nightsBetween(form.values.startDate, form.values.endDate)
      : null;

  const [failure, setFailure] = useState<string | null>(null);
  const { submit } = useFormMutation(form, {
    run: async (values) => {
      setFailure(null);
      const answer = await request.mutateAsync(values);
      setReceipt({ message: answer.message, approved: answer.state === 'approved' });
    },
    labels: LABELS,
    otherwise: (message) => setFailure(message),
  });

  if (receipt) {
    return (
      <Alert
        color="teal"
        variant="light"
        icon={<IconCircleCheck aria-hidden="true" />}
        title={receipt.approved ? 'Booked' : 'Request sent'}
        role="status"
      >
        {receipt.message} We sent a confirmation to {form.values.email}.
      </Alert>
    );
  }
  return (
    <form onSubmit={submit} noValidate aria-label="Request a stay">
      <Stack gap="md">
        <AvailabilityCalendar
          today={listing.today}
          taken={listing.taken}
          value={{ startDate: form.values.startDate || null, endDate: form.values.endDate || null }}
          onChange={({ startDate, endDate }) => {
            form.setValues({ startDate: startDate ?? '', endDate: endDate ?? '' });
            form.clearFieldError('startDate');
            form.clearFieldError('endDate');
          }}
        />
        <SimpleGrid cols={2} spacing="sm">
          <TextInput
            type="date"
            label={LABELS.startDate}
            required
            min={listing.today}
            {...form.getInputProps('startDate')}
          />
          <TextInput
            type="date"
            label={LABELS.endDate}
            required
            min={form.values.startDate || listing.today}
            {...form.getInputProps('endDate')}
          />
        </SimpleGrid>
        {nights !== null && (
          <Text size="sm" c={nights < listing.minNights || nights > listing.maxNights ? 'red' : 'dimmed'}>
            {nights} night{nights === 1 ? '' : 's'}
            {nights < listing.minNights ? ` (at least ${listing.minNights} here)` : ''}
            {nights > listing.maxNights ? ` (at most ${listing.maxNights} here)` : ''}
          </Text>
        )}
        <StayTotal listing={listing} nights={nights} />
        <TextInput
          label={LABELS.name}
          required
          autoComplete="name"
          maxLength={80}
          {...form.getInputProps('name')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            label={LABELS.email}
            type="email"
            required
            autoComplete="email"
            maxLength={254}
            {...form.getInputProps('email')}
          />
          <TextInput
            label={LABELS.phone}
            type="tel"
            autoComplete="tel"
            maxLength={32}
            {...form.getInputProps('phone')}
          />
        </SimpleGrid>
        <Textarea label={LABELS.note} autosize minRows={2} maxLength={1000} {...form.getInputProps('note')} />
        {failure && (
          <Alert color="red" variant="light" role="alert" title="Your request was not sent">
            {failure}
          </Alert>
        )}
        <Button type="submit" loading={request.isPending} size="md">
          {listing.autoAccept ? 'Book these dates' : 'Send request'}
        </Button>
        <Text size="xs" c="dimmed">
          {listing.autoAccept
            ? 'Free dates are booked at once. Your access code comes by mail once the lock has it.'
            : 'The host answers by mail. Your access code comes once they approve and the lock has it.'}
        </Text>
      </Stack>
    </form>
  );
}

/**
 * The price for the chosen nights ("3 nights × €120.00 = €360.00"), read aloud as it changes;
 * "Price on request" when the listing has none. Nothing is paid here: the host settles with the guest.
 */
function StayTotal({ listing, nights }: { listing: PublicListing; nights: number | null }) {
  const quote = nights !== null ? quoteStay(listing.price, nights) : null;
  return (
    <Stack gap={0} aria-live="polite">
      <Text size="sm" fw={quote ? 600 : undefined} data-testid="stay-total">
        {!listing.price
          ? 'Price on request'
          : quote
            ? describeQuote(quote)
            : `${describeNightlyPrice(listing.price)}: choose your dates to see the total`}
      </Text>
      <Text size="xs" c="dimmed">
        {listing.price
          ? 'Nothing is paid with the request; the host tells you how to pay.'
          : 'The host tells you the price with their answer.'}
      </Text>
    </Stack>
  );
}

/** /s/r/:listingId (no sign-in): a listing's pictures, description, free nights and the request form. */
export function RequestPage() {
  const { listingId = '' } = useParams();
  const listing = usePublicListing(listingId);
  if (listing.isPending) {
    return (
      <Stack gap="md" role="status" aria-label="Loading the listing">
        <Skeleton height={260} radius="md" />
        <Skeleton height={30} width="60%" />
        <Skeleton height={320} radius="md" />
      </Stack>
    );
  }
  if (listing.error) {
    if (isApiError(listing.error) && listing.error.status === 404) {
      return (
        <Alert
          color="gray"
          variant="light"
          icon={<IconInfoCircle aria-hidden="true" />}
          title="This listing is not open for requests"
        >
          The link may be old, or the host has closed requests for now.
        </Alert>
      );
    }
    return (
      <QueryError
        title="Could not load the listing"
        error={listing.error}
        onRetry={() => void listing.refetch()}
      />
    );
  }
  const data = listing.data;
  return (
    <Stack gap="lg">
      <ImageCarousel images={data.images} label={`Pictures of ${data.title}`} />
      <Stack gap={6}>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          {data.title}
        </Title>
        <Group gap={6}>
          {data.category && <Badge variant="light">{data.category}</Badge>}
          <Badge variant="light" color="gray" leftSection={<IconClock size={12} aria-hidden="true" />}>
            Check-in {data.checkInTime} · check-out {data.checkOutTime}
          </Badge>
          <Badge variant="light" color={data.price ? 'teal' : 'gray'}>
            {data.price ? describeNightlyPrice(data.price) : 'Price on request'}
          </Badge>
        </Group>
        {data.description && (
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            {data.description}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          Stays of{' '}
          {data.minNights === data.maxNights ? data.minNights : `${data.minNights} to ${data.maxNights}`}{' '}
          nights. Times are local ({data.timeZone}).
        </Text>
      </Stack>
      {data.houseRules && (
        <Paper withBorder radius="md" p="md" component="section" aria-label="House rules">
          <Text fw={600} size="sm" mb={4}>
            House rules
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            {data.houseRules}
          </Text>
        </Paper>
      )}
      <Paper withBorder radius="md" p="md" component="section" aria-labelledby="request-title">
        <Title order={2} fz="lg" id="request-title" mb="sm">
          Request a stay
        </Title>
        {data.taken.length > 0 && (
          <Text size="xs" c="dimmed" mb="xs">
            Next taken:{' '}
            {data.taken
              .slice(0, 3)
              .map((r) => `${formatCalendarDate(r.startDate)}–${formatCalendarDate(r.endDate)}`)
              .join(', ')}
          </Text>
        )}
        <RequestForm listing={data} />
      </Paper>
      <PublicReviewsSection reviews={data.reviews} />
    </Stack>
  );
}
