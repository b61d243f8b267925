import { memberUpdateSchema, type MemberUpdate, type PortalMember } from '@latchkey/shared';
import { Button, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { SectionCard } from '@/components/section-card';
import { formResolver, useFormMutation } from '@/lib/forms';
import { displayName } from '@/lib/session';
import { useUpdateMember } from '../api/update-member';

interface DetailsValues {
  firstName: string;
  lastName: string;
  role: 'admin' | 'user';
}

const LABELS: Record<keyof DetailsValues, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  role: 'Role',
};

const ROLE_OPTIONS = [
  { value: 'user', label: 'User: opens locks' },
  { value: 'admin', label: 'Admin: runs the portal' },
];

/** A person's name and role in this portal (POST portal/user/{id}); only what changed is sent. */
export function MemberDetailsCard({ member }: { member: PortalMember }) {
  const update = useUpdateMember();
  const form = useForm<DetailsValues>({
    mode: 'controlled',
    initialValues: { firstName: member.firstName, lastName: member.lastName, role: member.role },
    validate: formResolver(memberUpdateSchema, LABELS),
  });

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      const changes: MemberUpdate = {};
      if (values.firstName.trim() !== member.firstName) changes.firstName = values.firstName.trim();
      if (values.lastName.trim() !== member.lastName) changes.lastName = values.lastName.trim();
      if (values.role !== member.role) changes.role = values.role;
      if (Object.keys(changes).length === 0) return;
      const saved = await update.mutateAsync({ userId: member._id, ...changes });
      notifications.show({ color: 'teal', title: 'Saved', message: `${displayName(saved)} is up to date.` });
    },
    labels: LABELS,
    onStatus: { 409: 'role' },
    otherwise: 'Could not save',
  });

  return (
    <SectionCard title="Details">
      <form onSubmit={submit} noValidate aria-label="Details">
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput label={LABELS.firstName} maxLength={80} {...form.getInputProps('firstName')} />
            <TextInput label={LABELS.lastName} maxLength={80} {...form.getInputProps('lastName')} />
          </SimpleGrid>
          <TextInput
            label="Email"
            value={member.email}
            readOnly
            variant="filled"
            description="Their sign-in name; only they can change it."
          />
          <Select
            label={LABELS.role}
            data={ROLE_OPTIONS}
            allowDeselect={false}
            disabled={member.owner}
            description={member.owner ? 'The portal owner is always an admin.' : undefined}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('role')}
            onChange={(value) =>
              form.setFieldValue('role', (value as DetailsValues['role'] | null) ?? member.role)
            }
          />
          <Group justify="flex-end" gap="sm">
            <Button
              variant="default"
              onClick={() => form.reset()}
              disabled={!form.isDirty() || update.isPending}
            >
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending} disabled={!form.isDirty()}>
              Save changes
            </Button>
          </Group>
        </Stack>
      </form>
    </SectionCard>
  );
}
