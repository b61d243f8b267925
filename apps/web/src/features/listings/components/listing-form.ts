import { listingInputSchema, type Listing, type ListingCurrency, type ListingInput } from '@latchkey/shared';
import { formResolver } from '@/lib/forms';

/** The listing form's values: what the fields hold (text for times that may be empty). */
export interface ListingValues {
  title: string;
  description: string;
  categoryId: string | null;
  address: string;
  deviceIds: string[];
  houseRules: string;
  checkInTime: string;
  checkOutTime: string;
  initialTime: number;
  startTime: string;
  minNights: number;
  maxNights: number;
  autoAccept: boolean;
  published: boolean;
  /** In major units as typed ("120", "99.50"); '' for "Price on request". */
  nightlyPrice: number | string;
  currency: ListingCurrency;
}

export const LISTING_LABELS: Record<keyof ListingValues, string> = {
  title: 'Title',
  description: 'Description',
  categoryId: 'Category',
  address: 'Address',
  deviceIds: 'Locks',
  houseRules: 'House rules',
  checkInTime: 'Check-in',
  checkOutTime: 'Check-out',
  initialTime: 'Access before check-in (minutes)',
  startTime: 'Earliest access on arrival day',
  minNights: 'Shortest stay (nights)',
  maxNights: 'Longest stay (nights)',
  autoAccept: 'Accept requests for free dates at once',
  published: 'Published: the request page is open',
  nightlyPrice: 'Price per night',
  currency: 'Currency',
};

export function initialListingValues(listing?: Listing): ListingValues {
  return {
    title: listing?.title ?? '',
    description: listing?.description ?? '',
    categoryId: listing?.category?._id ?? null,
    address: listing?.address ?? '',
    deviceIds: listing?.locks.map((l) => l._id) ?? [],
    houseRules: listing?.houseRules ?? '',
    checkInTime: listing?.checkInTime ?? '15:00',
    checkOutTime: listing?.checkOutTime ?? '11:00',
    initialTime: listing?.initialTime ?? 0,
    startTime: listing?.startTime ?? '',
    minNights: listing?.minNights ?? 1,
    maxNights: listing?.maxNights ?? 30,
    autoAccept: listing?.autoAccept ?? false,
    published: listing?.published ?? false,
    nightlyPrice: listing?.nightlyPrice != null ? listing.nightlyPrice / 100 : '',
    currency: listing?.currency ?? 'EUR',
  };
}

/** A typed price in major units as minor units (the API's), null when empty. */
export function toMinorUnits(value: number | string): number | null {
  if (value === '' || value === null) return null;
  const amount = Number(value);
  // Not a number: NaN, which the schema refuses with its message.
  return Number.isFinite(amount) ? Math.round(amount * 100) : Number.NaN;
}

export function toListingInput(values: ListingValues): ListingInput {
  return {
    ...values,
    title: values.title.trim(),
    address: values.address.trim(),
    initialTime: Number(values.initialTime) || 0,
    minNights: Number(values.minNights),
    maxNights: Number(values.maxNights),
    startTime: values.startTime || null,
    nightlyPrice: toMinorUnits(values.nightlyPrice),
  };
}

export const validateListing = formResolver<ListingValues>(
  listingInputSchema,
  LISTING_LABELS,
  toListingInput,
);
