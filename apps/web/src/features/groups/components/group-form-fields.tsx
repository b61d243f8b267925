import { groupInputSchema } from '@latchkey/shared';
import { Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { formResolver } from '@/lib/forms';

export interface GroupValues {
  name: string;
  description: string;
}

export const GROUP_LABELS: Record<keyof GroupValues, string> = { name: 'Name', description: 'Description' };

export const validateGroup = formResolver<GroupValues>(groupInputSchema, GROUP_LABELS);

/** The name and description inputs of the create and edit forms. */
export function GroupFormFields({
  form,
  autoFocus = false,
}: {
  form: UseFormReturnType<GroupValues>;
  autoFocus?: boolean;
}) {
  return (
    <>
      <TextInput
        label={GROUP_LABELS.name}
        placeholder="Cleaning staff"
        required
        maxLength={80}
        data-autofocus={autoFocus || undefined}
        {...form.getInputProps('name')}
      />
      <Textarea
        label={GROUP_LABELS.description}
        description="Optional: who belongs here, and why."
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        autosize
        minRows={2}
        maxRows={6}
        maxLength={500}
        {...form.getInputProps('description')}
      />
    </>
  );
}
