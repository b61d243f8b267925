import { COUNTRY_CODES, isEuCountry } from '@latchkey/shared';
import { Select, SimpleGrid, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';

/** The reseller's company, as both the sign-up and "open a reseller account" forms ask it. */
export interface CompanyValues {
  companyName: string;
  country: string;
  vatNumber: string;
}

export const COMPANY_LABELS: Record<keyof CompanyValues, string> = {
  companyName: 'Company name',
  country: 'Country',
  vatNumber: 'VAT number',
};

const regions = new Intl.DisplayNames(['en-US'], { type: 'region' });
const COUNTRY_OPTIONS = COUNTRY_CODES.map((code) => ({ value: code, label: regions.of(code) ?? code })).sort(
  (a, b) => a.label.localeCompare(b.label),
);

/** What the API takes from the company fields: an empty VAT number is none. */
export function companyInput(values: CompanyValues) {
  return {
    companyName: values.companyName,
    country: values.country,
    vatNumber: values.vatNumber.trim() || null,
  };
}

/** Company name, country and (in the EU) VAT number. */
export function CompanyFields<Values extends CompanyValues>({ form }: { form: UseFormReturnType<Values> }) {
  // Controlled forms only: the VAT hint follows the country as it is chosen.
  const country = form.getValues().country;
  return (
    <>
      <TextInput
        label={COMPANY_LABELS.companyName}
        autoComplete="organization"
        required
        maxLength={120}
        key={form.key('companyName')}
        {...form.getInputProps('companyName')}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <Select
          label={COMPANY_LABELS.country}
          required
          searchable
          data={COUNTRY_OPTIONS}
          placeholder="Choose a country"
          nothingFoundMessage="No country by that name"
          key={form.key('country')}
          {...form.getInputProps('country')}
          onChange={(value) => form.setFieldValue('country', (value ?? '') as never)}
        />
        <TextInput
          label={COMPANY_LABELS.vatNumber}
          description={
            country && !isEuCountry(country) ? 'Only EU VAT numbers.' : 'Optional, with its country prefix.'
          }
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          maxLength={20}
          key={form.key('vatNumber')}
          {...form.getInputProps('vatNumber')}
        />
      </SimpleGrid>
    </>
  );
}
