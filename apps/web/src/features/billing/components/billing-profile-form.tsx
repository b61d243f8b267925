import {
  billingProfileInputSchema,
  COUNTRY_CODES,
  isEuCountry,
  type BillingProfile,
  type BillingProfileInput,
} from '@latchkey/shared';
import { Button, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { formResolver, useFormMutation } from '@/lib/forms';
import { useSaveBillingProfile } from '../api/save-billing-profile';
import { countryName } from './bill-text';

interface ProfileValues {
  name: string;
  addressLine1: string;
  addressLine2: string;
  postalCode: string;
  city: string;
  country: string;
  vatNumber: string;
  email: string;
}

const LABELS: Record<keyof ProfileValues, string> = {
  name: 'Name or company',
  addressLine1: 'Address',
  addressLine2: 'Address line 2',
  postalCode: 'Postal code',
  city: 'City',
  country: 'Country',
  vatNumber: 'VAT number',
  email: 'Billing email',
};

const COUNTRY_OPTIONS = COUNTRY_CODES.map((code) => ({ value: code, label: countryName(code) })).sort(
  (a, b) => a.label.localeCompare(b.label),
);

function initialValues(profile: BillingProfile | null, portalName: string): ProfileValues {
  return {
    name: profile?.name ?? portalName,
    addressLine1: profile?.addressLine1 ?? '',
    addressLine2: profile?.addressLine2 ?? '',
    postalCode: profile?.postalCode ?? '',
    city: profile?.city ?? '',
    country: profile?.country ?? '',
    vatNumber: profile?.vatNumber ?? '',
    email: profile?.email ?? '',
  };
}

function toInput(values: ProfileValues): BillingProfileInput {
  return { ...values, vatNumber: values.vatNumber.trim() || null, email: values.email.trim() };
}

const validate = formResolver<ProfileValues>(billingProfileInputSchema, LABELS, toInput);

/** The portal's billing details: the buyer on its bills (VAT follows the country and VAT number). */
export function BillingProfileForm({
  profile,
  portalName,
}: {
  profile: BillingProfile | null;
  portalName: string;
}) {
  const save = useSaveBillingProfile();
  const form = useForm<ProfileValues>({
    mode: 'controlled',
    initialValues: initialValues(profile, portalName),
    validate: (values) => {
      const errors = validate(values);
      if (!values.country) errors.country = 'Choose the country of the billing address';
      return errors;
    },
  });
  const inEu = form.values.country !== '' && isEuCountry(form.values.country);

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      const saved = await save.mutateAsync(toInput(values));
      form.setValues(initialValues(saved, portalName));
      form.resetDirty();
      notifications.show({
        color: 'teal',
        title: 'Billing details saved',
        message: 'They apply to this month’s bill and the ones after it.',
      });
    },
    labels: LABELS,
    otherwise: 'Could not save the billing details',
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Billing details">
      <Stack gap="md">
        <TextInput label={LABELS.name} required maxLength={120} {...form.getInputProps('name')} />
        <TextInput
          label={LABELS.addressLine1}
          required
          maxLength={120}
          {...form.getInputProps('addressLine1')}
        />
        <TextInput label={LABELS.addressLine2} maxLength={120} {...form.getInputProps('addressLine2')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput label={LABELS.postalCode} maxLength={20} {...form.getInputProps('postalCode')} />
          <TextInput label={LABELS.city} required maxLength={80} {...form.getInputProps('city')} />
        </SimpleGrid>
        <Select
          label={LABELS.country}
          required
          searchable
          data={COUNTRY_OPTIONS}
          placeholder="Choose a country"
          nothingFoundMessage="No country by that name"
          {...form.getInputProps('country')}
          onChange={(value) => form.setFieldValue('country', value ?? '')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label={LABELS.vatNumber}
            description={
              inEu
                ? 'For a business: with its country prefix. Elsewhere in the EU it makes the bill reverse-charged.'
                : 'Only for businesses in the EU.'
            }
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            maxLength={20}
            disabled={!inEu && form.values.vatNumber === ''}
            {...form.getInputProps('vatNumber')}
          />
          <TextInput
            type="email"
            label={LABELS.email}
            description="Printed on the bill; leave empty to use none."
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            maxLength={254}
            {...form.getInputProps('email')}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            Save billing details
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
