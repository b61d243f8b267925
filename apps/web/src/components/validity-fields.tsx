import { SimpleGrid } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { browserTimeZone } from '@/lib/local-datetime';
import { VALIDITY_LABELS } from '@/lib/validity';
import { DateTimeInput } from './date-time-input';

interface ValidityFieldsProps {
  /** `form.getInputProps('validFrom')` */
  from: GetInputPropsReturnType;
  /** `form.getInputProps('validUntil')` */
  until: GetInputPropsReturnType;
  /**
   * Whose clock the fields are on, in words: "the lock's clock (Europe/Rome)" (credentialClock in
   * lib/zoned-time.ts). Without it, the browser's.
   */
  clock?: string;
}

/**
 * Optional "Valid from" and "Valid until" date-times (a date and a 24-hour time each), side by
 * side, saying whose clock they are on.
 */
export function ValidityFields({ from, until, clock }: ValidityFieldsProps) {
  const hint = `Optional, on ${clock ?? `your clock (${browserTimeZone()})`}.`;
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
      <DateTimeInput label={VALIDITY_LABELS.validFrom} description={hint} {...from} />
      <DateTimeInput label={VALIDITY_LABELS.validUntil} description={hint} {...until} />
    </SimpleGrid>
  );
}
