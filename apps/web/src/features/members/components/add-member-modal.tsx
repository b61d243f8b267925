import { memberCreateSchema, PASSWORD_MIN_LENGTH, type PortalMember } from '@latchkey/shared';
import { Button, Group, Modal, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { isApiError } from '@/lib/api-client';
import { errorMessage, fieldErrorsFrom, sentence } from '@/lib/errors';
import { formResolver } from '@/lib/forms';
import { useCreateMember } from '../api/create-member';
import { PERSON_LABELS, PersonFields, type PersonValues } from './person-fields';

interface AddMemberValues extends PersonValues {
  password: string;
}

const LABELS: Record<keyof AddMemberValues, string> = {
  ...PERSON_LABELS,
  password: 'Password',
};

const toInput = (values: AddMemberValues) => ({
  email: values.email,
  firstName: values.firstName,
  lastName: values.lastName,
  role: values.role,
  password: values.password || undefined,
});

export interface MemberAdded {
  member: PortalMember;
  initialPassword: string | null;
}

interface AddMemberFormProps {
  onAdded: (added: MemberAdded) => void;
  onCancel: () => void;
}

function AddMemberForm({ onAdded, onCancel }: AddMemberFormProps) {
  const create = useCreateMember();
  const form = useForm<AddMemberValues>({
    mode: 'controlled',
    initialValues: { email: '', firstName: '', lastName: '', role: 'user', password: '' },
    validate: formResolver(memberCreateSchema, LABELS, toInput),
  });

  const submit = form.onSubmit(async (values) => {
    try {
      onAdded(await create.mutateAsync(toInput(values)));
    } catch (error) {
      if (isApiError(error) && error.status === 409) {
        form.setFieldError('email', sentence(error.message));
        return;
      }
      const fieldErrors = isApiError(error) && error.status === 400 ? fieldErrorsFrom(error, LABELS) : {};
      if (Object.keys(fieldErrors).length > 0) form.setErrors(fieldErrors);
      else
        notifications.show({ color: 'red', title: 'Could not add the person', message: errorMessage(error) });
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Add person">
      <Stack gap="md">
        <PersonFields form={form} />
        <PasswordInput
          label={LABELS.password}
          description={`Optional, for someone without a Latchkey account: at least ${PASSWORD_MIN_LENGTH} characters. Leave it empty to have one made up and shown to you once.`}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          autoComplete="new-password"
          {...form.getInputProps('password')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Add person
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface AddMemberModalProps extends AddMemberFormProps {
  opened: boolean;
}

/** "Add person": email, name, role and an optional first password. */
export function AddMemberModal({ opened, onCancel, onAdded }: AddMemberModalProps) {
  return (
    <Modal opened={opened} onClose={onCancel} title="Add person" closeButtonProps={{ 'aria-label': 'Close' }}>
      <AddMemberForm onCancel={onCancel} onAdded={onAdded} />
    </Modal>
  );
}
