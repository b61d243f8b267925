import { SimpleGrid, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { browserTimeZone } from '@/lib/local-datetime';
import { VALIDITY_LABELS } from '@/lib/validity';

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

/** Optional "Valid from" and "Valid until" date-times, side by side, saying whose clock they are on. */
export function ValidityFields({ from, until, clock }: ValidityFieldsProps) {
  const hint = `Optional, on ${clock ?? `your clock (${browserTimeZone()})`}.`;
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
      <TextInput
        type="datetime-local"
        label={VALIDITY_LABELS.validFrom}
        description={hint}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        {...from}
      />
      <TextInput
        type="datetime-local"
        label={VALIDITY_LABELS.validUntil}
        description={hint}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        {...until}
      />
    </SimpleGrid>
  );
}
