import {
  addressSchema,
  orderInputSchema,
  REGIONS,
  SHIPPING_COUNTRIES,
  SHIPPING_COUNTRY_CODES,
  type BillingProfile,
  type Session,
  type ShippingCountry,
} from '@latchkey/shared';
import { Button, Grid, Group, Paper, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { z } from 'zod';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { billingQueryOptions } from '@/features/billing/api/get-billing';
import { hasRequiredRole } from '@/lib/authorization';
import { formResolver } from '@/lib/forms';
import { useSession } from '@/lib/session';
import { storage } from '@/lib/storage';
import { cartLines, useCart } from '@/lib/use-cart';
import { readCheckoutState, saveCheckoutState } from '@/lib/checkout-state';
import { CheckoutSteps } from './checkout-steps';

const formSchema = z.object({ email: orderInputSchema.shape.email, address: addressSchema });

const LABELS = {
  email: 'Email',
  'address.name': 'Full name',
  'address.company': 'Company',
  'address.line1': 'Street and number',
  'address.line2': 'Address line 2',
  'address.postalCode': 'Postal code',
  'address.city': 'City',
  'address.region': 'State or province',
  'address.country': 'Country',
  'address.phone': 'Phone',
};

const COUNTRY_OPTIONS = SHIPPING_COUNTRY_CODES.map((code) => ({
  value: code,
  label: SHIPPING_COUNTRIES[code].name,
})).sort((a, b) => a.label.localeCompare(b.label));

interface Values {
  email: string;
  address: {
    name: string;
    company: string;
    line1: string;
    line2: string;
    postalCode: string;
    city: string;
    region: string;
    country: ShippingCountry;
    phone: string;
  };
}

const isShippingCountry = (code: string): code is ShippingCountry =>
  (SHIPPING_COUNTRY_CODES as readonly string[]).includes(code);

/**
 * The delivery address a portal's billing details suggest: the signed-in person as the recipient,
 * the billing name as the company when it is not theirs, the billing address where it ships.
 */
export function addressFromBilling(profile: BillingProfile, session: Session): Partial<Values> {
  const person = `${session.user.firstName} ${session.user.lastName}`.trim();
  const values: Partial<Values> = {
    email: profile.email ?? session.user.email,
  };
  if (!isShippingCountry(profile.country)) return values;
  return {
    ...values,
    address: {
      name: person || profile.name,
      company: person && profile.name !== person ? profile.name : '',
      line1: profile.addressLine1,
      line2: profile.addressLine2,
      postalCode: profile.postalCode,
      city: profile.city,
      region: '',
      country: profile.country,
      phone: '',
    },
  };
}

/**
 * /address (anyone): where the order goes, checked against the country's postal rules. A portal
 * admin starts from the portal's billing details instead of an empty form (what they typed in
 * this checkout, if anything, comes first).
 */
export function AddressPage() {
  const navigate = useNavigate();
  const { cart } = useCart();
  const saved = readCheckoutState();
  const { data: session } = useSession();
  // GET portal/billing is an admin's; a basic user or a visitor starts empty.
  const mayReadBilling = !!session && session.portal !== null && hasRequiredRole(session.roles, ['admin']);
  const billing = useQuery({ ...billingQueryOptions(), enabled: mayReadBilling && !saved.address });
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      email: saved.email || storage.getUserData()?.email || '',
      address: {
        name: saved.address?.name ?? '',
        company: saved.address?.company ?? '',
        line1: saved.address?.line1 ?? '',
        line2: saved.address?.line2 ?? '',
        postalCode: saved.address?.postalCode ?? '',
        city: saved.address?.city ?? '',
        region: saved.address?.region ?? '',
        country: saved.address?.country ?? 'DE',
        phone: saved.address?.phone ?? '',
      },
    },
    validate: formResolver<Values>(formSchema, LABELS),
  });
  // Once, and only over an untouched form: the billing details arrive after the first paint.
  const prefilled = useRef(false);
  const profile = billing.data?.profile;
  useEffect(() => {
    if (prefilled.current || !profile || !session || saved.address || form.isDirty()) return;
    prefilled.current = true;
    form.setValues(addressFromBilling(profile, session));
    form.resetDirty();
  }, [profile, session, saved.address, form]);
  if (cartLines(cart).length === 0) return <Navigate to={paths.shop.cart.href()} replace />;

  const country = form.values.address.country;
  const regions = REGIONS[country];
  const example = SHIPPING_COUNTRIES[country]?.postalExample;

  const submit = form.onSubmit((values) => {
    const parsed = formSchema.parse(values);
    saveCheckoutState({ email: parsed.email, address: parsed.address });
    void navigate(paths.shop.shipping.href());
  });

  return (
    <Stack gap="lg" maw={720}>
      <CheckoutSteps current={1} />
      <PageHeader title="Delivery address" description="Where should we send your order?" />
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <TextInput
              label="Email"
              description="For the order confirmation and the receipt."
              type="email"
              autoComplete="email"
              required
              {...form.getInputProps('email')}
            />
            <TextInput
              label="Full name"
              autoComplete="name"
              required
              {...form.getInputProps('address.name')}
            />
            <TextInput
              label="Company"
              autoComplete="organization"
              {...form.getInputProps('address.company')}
            />
            <Select
              label="Country"
              data={COUNTRY_OPTIONS}
              allowDeselect={false}
              searchable
              required
              autoComplete="country"
              {...form.getInputProps('address.country')}
              onChange={(value) => {
                form.setFieldValue('address.country', (value ?? 'DE') as ShippingCountry);
                form.setFieldValue('address.region', '');
                form.clearFieldError('address.postalCode');
              }}
            />
            <TextInput
              label="Street and number"
              autoComplete="address-line1"
              required
              {...form.getInputProps('address.line1')}
            />
            <TextInput
              label="Address line 2"
              autoComplete="address-line2"
              {...form.getInputProps('address.line2')}
            />
            <Grid gap="md">
              <Grid.Col span={{ base: 12, xs: 5 }}>
                <TextInput
                  label="Postal code"
                  placeholder={example}
                  autoComplete="postal-code"
                  required
                  {...form.getInputProps('address.postalCode')}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, xs: 7 }}>
                <TextInput
                  label="City"
                  autoComplete="address-level2"
                  required
                  {...form.getInputProps('address.city')}
                />
              </Grid.Col>
            </Grid>
            {regions && (
              <Select
                label={country === 'US' ? 'State' : 'Province'}
                data={[...regions]}
                searchable
                required
                autoComplete="address-level1"
                {...form.getInputProps('address.region')}
              />
            )}
            <TextInput
              label="Phone"
              description="For the courier, if they need to reach you."
              type="tel"
              autoComplete="tel"
              {...form.getInputProps('address.phone')}
            />
            <Group justify="space-between" mt="sm">
              <Button variant="default" onClick={() => void navigate(paths.shop.cart.href())}>
                Back to the cart
              </Button>
              <Button type="submit">Continue to shipping</Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
