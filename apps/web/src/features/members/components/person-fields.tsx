import { SegmentedControl, SimpleGrid, Stack, Text, TextInput, useMatches } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useId } from 'react';

/** The fields that say who a new person is and what they may do, as adding and inviting ask them. */
export interface PersonValues {
  email: string;
  firstName: string;
  lastName: string;
  role: 'admin' | 'user';
}

export const PERSON_LABELS: Record<keyof PersonValues, string> = {
  email: 'Email',
  firstName: 'First name',
  lastName: 'Last name',
  role: 'Role',
};

/** Email (focused first), first and last name side by side, and the role as two choices. */
export function PersonFields<Values extends PersonValues>({ form }: { form: UseFormReturnType<Values> }) {
  const roleLabel = useId();
  // Side by side the two roles' words need ≈ 400 px: on a phone they stack instead of being cut.
  const roleOrientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', xs: 'horizontal' });
  return (
    <>
      <TextInput
        label={PERSON_LABELS.email}
        type="email"
        autoComplete="off"
        required
        data-autofocus
        {...form.getInputProps('email')}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <TextInput
          label={PERSON_LABELS.firstName}
          autoComplete="off"
          maxLength={80}
          {...form.getInputProps('firstName')}
        />
        <TextInput
          label={PERSON_LABELS.lastName}
          autoComplete="off"
          maxLength={80}
          {...form.getInputProps('lastName')}
        />
      </SimpleGrid>
      <Stack gap={4}>
        <Text size="sm" fw={500} id={roleLabel}>
          {PERSON_LABELS.role}
        </Text>
        <SegmentedControl
          aria-labelledby={roleLabel}
          orientation={roleOrientation}
          data={[
            { value: 'user', label: 'User: opens locks' },
            { value: 'admin', label: 'Admin: runs the portal' },
          ]}
          {...form.getInputProps('role')}
        />
      </Stack>
    </>
  );
}
