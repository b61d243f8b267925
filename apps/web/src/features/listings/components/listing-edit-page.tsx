import { LISTING_CURRENCIES, type Listing } from '@latchkey/shared';
import {
  Alert,
  Button,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { BackLink } from '@/components/back-link';
import { PageHeader } from '@/components/page-header';
import { PlanRefusalAlert } from '@/components/plan-refusal-alert';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { LOCK_OPTIONS_LIMIT, useLockOptions } from '@/features/devices/api/get-devices';
import { useFormMutation } from '@/lib/forms';
import { useCategories, useCreateCategory } from '../api/categories';
import { useListing, useSaveListing } from '../api/listings';
import { listingKeys } from '../api/query-keys';
import {
  initialListingValues,
  LISTING_LABELS,
  toListingInput,
  validateListing,
  type ListingValues,
} from './listing-form';
import { ImageManager } from './listing-images';
import { RecordPage } from '@/components/record-page';
import { ClockInput } from '@/components/clock-input';

function CategoryField({
  value,
  onChange,
  error,
}: {
  value: string | null;
  onChange: (value: string | null) => void;
  error?: string;
}) {
  const categories = useCategories();
  const create = useCreateCategory();
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState('');
  const add = async () => {
    try {
      const category = await create.mutateAsync(name.trim());
      onChange(category._id);
      setAdding(false);
      setName('');
    } catch (caught) {
      notifications.show({
        color: 'red',
        title: 'Could not add the category',
        message: errorMessage(caught),
      });
    }
  };
  return (
    <Stack gap={6}>
      <Select
        label={LISTING_LABELS.categoryId}
        placeholder={categories.isPending ? 'Loading categories…' : 'No category'}
        data={(categories.data ?? []).map((c) => ({ value: c._id, label: c.name }))}
        value={value}
        onChange={onChange}
        clearable
        error={error ?? (categories.error ? 'Could not load the categories' : undefined)}
        comboboxProps={{ withinPortal: true }}
      />
      {adding ? (
        <Group gap="xs" align="flex-end">
          <TextInput
            label="New category"
            placeholder="Studio"
            value={name}
            maxLength={60}
            onChange={(event) => setName(event.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button
            variant="default"
            onClick={() => void add()}
            loading={create.isPending}
            disabled={!name.trim()}
          >
            Add
          </Button>
          <Button variant="subtle" onClick={() => setAdding(false)}>
            Cancel
          </Button>
        </Group>
      ) : (
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconPlus size={14} aria-hidden="true" />}
          onClick={() => setAdding(true)}
          style={{ alignSelf: 'flex-start' }}
        >
          New category
        </Button>
      )}
    </Stack>
  );
}

function ListingForm({ listing }: { listing?: Listing }) {
  const navigate = useNavigate();
  const save = useSaveListing();
  const locks = useLockOptions();
  const form = useForm<ListingValues>({
    mode: 'controlled',
    initialValues: initialListingValues(listing),
    validate: validateListing,
  });
  const backTo = listing ? paths.app.listing.href(listing._id) : paths.app.listings.href();
  // The plan's refusal (402: rentals are not in the portal's plan): shown by the buttons, with the
  // way to the plans; what was typed stays.
  const [planRefusal, setPlanRefusal] = useState<string | null>(null);

  const options = new Map(
    (locks.data?.items ?? []).map((device) => [device._id, `${device.name} (${device.timeZone})`]),
  );
  for (const lock of listing?.locks ?? []) if (!options.has(lock._id)) options.set(lock._id, lock.name);
  const lockData = [...options].map(([value, label]) => ({ value, label }));

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      setPlanRefusal(null);
      const saved = await save.mutateAsync({ listingId: listing?._id ?? null, ...toListingInput(values) });
      notifications.show({
        color: 'teal',
        title: listing ? 'Listing saved' : 'Listing created',
        message: saved.title,
      });
      await navigate(paths.app.listing.href(saved._id), { replace: true });
    },
    labels: LISTING_LABELS,
    onStatus: { 402: (message) => setPlanRefusal(message) },
    otherwise: listing ? 'Could not save the listing' : 'Could not create the listing',
  });

  return (
    <form onSubmit={submit} noValidate aria-label={listing ? 'Edit listing' : 'New listing'}>
      <Stack gap="lg">
        <SectionCard title="What you offer">
          <Stack gap="md">
            <TextInput
              label={LISTING_LABELS.title}
              placeholder="Sea view flat"
              required
              maxLength={120}
              data-autofocus
              {...form.getInputProps('title')}
            />
            <Textarea
              label={LISTING_LABELS.description}
              description="Shown on the public request page."
              autosize
              minRows={3}
              maxLength={5000}
              {...form.getInputProps('description')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <CategoryField
                value={form.values.categoryId}
                onChange={(value) => form.setFieldValue('categoryId', value)}
                error={form.errors.categoryId as string | undefined}
              />
              <TextInput
                label={LISTING_LABELS.address}
                description="Only guests see it, on their arrival page."
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                maxLength={300}
                {...form.getInputProps('address')}
              />
            </SimpleGrid>
            <Textarea
              label={LISTING_LABELS.houseRules}
              autosize
              minRows={2}
              maxLength={3000}
              {...form.getInputProps('houseRules')}
            />
          </Stack>
        </SectionCard>

        <SectionCard
          title="The locks"
          description="The locks a guest gets: the flat's door and, say, the building's entrance. They must share one time zone."
        >
          {locks.error ? (
            <QueryError
              title="Could not load the locks"
              error={locks.error}
              onRetry={() => void locks.refetch()}
            />
          ) : (
            <Stack gap="xs">
              <MultiSelect
                label={LISTING_LABELS.deviceIds}
                placeholder={form.values.deviceIds.length ? undefined : 'Choose locks'}
                data={lockData}
                searchable
                hidePickedOptions
                required
                nothingFoundMessage={locks.isPending ? 'Loading locks…' : 'No lock matches'}
                comboboxProps={{ withinPortal: true }}
                {...form.getInputProps('deviceIds')}
              />
              {(locks.data?.total ?? 0) > LOCK_OPTIONS_LIMIT && (
                <Alert color="yellow" variant="light" icon={<IconInfoCircle aria-hidden="true" />}>
                  Only the first {LOCK_OPTIONS_LIMIT} locks by name are offered here.
                </Alert>
              )}
            </Stack>
          )}
        </SectionCard>

        <SectionCard
          title="Stays"
          description="Times are on the locks' clock. A guest's code works from check-in (or earlier, as set below) until check-out."
        >
          <Stack gap="md">
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
              <ClockInput
                label={LISTING_LABELS.checkInTime}
                required
                {...form.getInputProps('checkInTime')}
              />
              <ClockInput
                label={LISTING_LABELS.checkOutTime}
                required
                {...form.getInputProps('checkOutTime')}
              />
              <NumberInput
                label={LISTING_LABELS.minNights}
                min={1}
                max={365}
                allowDecimal={false}
                {...form.getInputProps('minNights')}
              />
              <NumberInput
                label={LISTING_LABELS.maxNights}
                min={1}
                max={365}
                allowDecimal={false}
                {...form.getInputProps('maxNights')}
              />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <NumberInput
                label={LISTING_LABELS.nightlyPrice}
                description="Shown on the request page with the total for the chosen nights. Empty: “Price on request”. No payment is taken through Latchkey."
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                placeholder="Price on request"
                min={0}
                max={100000}
                decimalScale={2}
                thousandSeparator=","
                {...form.getInputProps('nightlyPrice')}
              />
              <Select
                label={LISTING_LABELS.currency}
                data={[...LISTING_CURRENCIES]}
                allowDeselect={false}
                {...form.getInputProps('currency')}
              />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <NumberInput
                label={LISTING_LABELS.initialTime}
                description="Share-lock initialTime: 60 lets guests in an hour before check-in."
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                min={0}
                max={1440}
                step={15}
                allowDecimal={false}
                {...form.getInputProps('initialTime')}
              />
              <ClockInput
                label={LISTING_LABELS.startTime}
                description="Share-lock startTime: access never starts before this on the arrival day. Leave empty for no limit."
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                {...form.getInputProps('startTime')}
              />
            </SimpleGrid>
            <Switch
              label={LISTING_LABELS.autoAccept}
              description="Otherwise each request waits for your approval."
              {...form.getInputProps('autoAccept', { type: 'checkbox' })}
            />
            <Switch
              label={LISTING_LABELS.published}
              {...form.getInputProps('published', { type: 'checkbox' })}
            />
          </Stack>
        </SectionCard>

        {planRefusal && <PlanRefusalAlert title="Your plan does not include rentals" message={planRefusal} />}
        <Group justify="flex-end" gap="sm">
          <Button component={Link} to={backTo} variant="default" disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {listing ? 'Save listing' : 'Create listing'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /app/listing/edit/:listingId (admin): create (`new`) or edit a listing, and its images. */
export function ListingEditPage() {
  const { listingId = 'new' } = useParams();
  const creating = listingId === 'new';
  const query = useListing(listingId, { enabled: !creating });

  if (creating) {
    return (
      <Stack gap="lg">
        <BackLink to={paths.app.listings.href()} label="All listings" />
        <PageHeader
          title="New listing"
          description="Offer one or more locks for stays. Images come once it is saved."
        />
        <ListingForm />
      </Stack>
    );
  }
  return (
    <RecordPage
      query={query}
      noun="listing"
      back={{ to: paths.app.listings.href(), label: 'All listings' }}
      skeleton={<Skeleton height={420} radius="lg" />}
      header={(listing) => ({
        back: { to: paths.app.listing.href(listing._id), label: listing.title },
        title: `Edit ${listing.title}`,
      })}
    >
      {(listing) => (
        <>
          <SectionCard
            title="Images"
            description="The first one leads the public page. Changes are saved at once."
          >
            <ImageManager
              images={listing.images}
              basePath={`listing/${listing._id}`}
              refresh={listingKeys.detail(listing._id)}
              label="listing image"
            />
          </SectionCard>
          <ListingForm key={listing._id} listing={listing} />
        </>
      )}
    </RecordPage>
  );
}
