import {
  fingerprintUpdateSchema,
  type Finger,
  type Fingerprint,
  type FingerprintUpdate,
} from '@latchkey/shared';
import { Anchor, Button, Code, Grid, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconTransfer, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PersonSelect } from '@/features/people-picker/components/person-select';
import { SectionCard } from '@/components/section-card';
import { ValidityBadge } from '@/components/validity-badge';
import { ValidityFields } from '@/components/validity-fields';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { FINGER_OPTIONS, fingerLabel } from '@/lib/credential-labels';
import { errorMessage, sentence } from '@/lib/errors';
import { formatDate, formatValidity } from '@/lib/format';
import { formResolver, useFormMutation } from '@/lib/forms';
import { credentialClock, usePortalTimeZone } from '@/lib/zoned-time';
import {
  checkValidity,
  friendlyValidity,
  VALIDITY_LABELS,
  validityInput,
  validityValues,
  type ValidityValues,
} from '@/lib/validity';
import { useDeleteFingerprint } from '../api/delete-fingerprint';
import { useFingerprint } from '../api/get-fingerprint';
import { useLinkFingerprintUser } from '../api/link-fingerprint-user';
import { fingerprintKeys } from '../api/query-keys';
import { useUpdateFingerprint } from '../api/update-fingerprint';
import { RecordPage } from '@/components/record-page';

/** Where "back" and "after deleting" lead: the holder's page, or the people. */
const backOf = (fingerprint: Fingerprint) =>
  fingerprint.holder
    ? {
        to: paths.app.member.href(fingerprint.holder._id),
        label: fingerprint.holder.name || fingerprint.holder.email,
      }
    : { to: paths.app.members.href(), label: 'All people' };

const titleOf = (fingerprint: Fingerprint) => fingerprint.name || `${fingerLabel(fingerprint.finger)} finger`;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2} style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

function FactsCard({ fingerprint }: { fingerprint: Fingerprint }) {
  const { holder, device } = fingerprint;
  const clock = useFingerprintClock(fingerprint);
  return (
    <SectionCard
      title="Fingerprint"
      description="A finger enrolled on one lock's reader; it opens only that lock."
    >
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="md">
        <Fact label="Holder">
          {holder ? (
            <Anchor component={Link} to={paths.app.member.href(holder._id)} fw={600}>
              {holder.name || holder.email}
            </Anchor>
          ) : (
            <Text span c="dimmed" size="sm">
              Nobody
            </Text>
          )}
        </Fact>
        <Fact label="Lock">
          <Anchor component={Link} to={paths.app.device.href(device._id)} fw={600}>
            {device.name}
          </Anchor>
        </Fact>
        <Fact label="Finger">{fingerLabel(fingerprint.finger)}</Fact>
        <Fact label="Template id">
          <Code>{fingerprint.templateId}</Code>
        </Fact>
        <Fact label="Valid">
          {formatValidity(fingerprint.validFrom, fingerprint.validUntil, clock.timeZone, { zone: true })}
        </Fact>
        <Fact label="Recorded">{formatDate(fingerprint.createdAt)}</Fact>
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt="md">
        Times on {clock.says}. To change the template or the lock, enrol the finger again.
      </Text>
    </SectionCard>
  );
}

interface EditValues extends ValidityValues {
  finger: Finger;
  name: string;
}

const LABELS: Record<keyof EditValues, string> = { finger: 'Finger', name: 'Label', ...VALIDITY_LABELS };

/** The form's values as the API's, the times read on the lock's clock. */
const toInput =
  (timeZone: string) =>
  (values: EditValues): FingerprintUpdate => ({
    finger: values.finger,
    name: values.name.trim(),
    ...validityInput(values, timeZone),
  });

/** A fingerprint's times are on its lock's clock (the portal's if an older server did not say it). */
function useFingerprintClock(fingerprint: Fingerprint) {
  const portalZone = usePortalTimeZone();
  return credentialClock(fingerprint.device.timeZone ? [fingerprint.device.timeZone] : [], portalZone);
}

function EditCard({ fingerprint }: { fingerprint: Fingerprint }) {
  const update = useUpdateFingerprint();
  const clock = useFingerprintClock(fingerprint);
  const write = toInput(clock.timeZone);
  const resolve = formResolver<EditValues>(fingerprintUpdateSchema, LABELS, write);
  const form = useForm<EditValues>({
    mode: 'controlled',
    initialValues: {
      finger: fingerprint.finger,
      name: fingerprint.name,
      ...validityValues(fingerprint, clock.timeZone),
    },
    validate: (values): FormErrors => checkValidity(values, resolve(values), clock.timeZone),
  });

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      const saved = await update.mutateAsync({ fingerprintId: fingerprint._id, ...write(values) });
      notifications.show({
        color: 'teal',
        title: 'Fingerprint saved',
        message: `${titleOf(saved)} is up to date.`,
      });
    },
    labels: LABELS,
    adjustErrors: (errors) => friendlyValidity(errors),
    otherwise: 'Could not save',
  });

  return (
    <SectionCard title="Edit">
      <form onSubmit={submit} noValidate aria-label="Edit fingerprint">
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <Select
              label={LABELS.finger}
              data={FINGER_OPTIONS}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
              {...form.getInputProps('finger')}
              onChange={(value) => value && form.setFieldValue('finger', value as Finger)}
            />
            <TextInput
              label={LABELS.name}
              placeholder="Optional"
              maxLength={80}
              {...form.getInputProps('name')}
            />
          </SimpleGrid>
          <ValidityFields
            from={form.getInputProps('validFrom')}
            until={form.getInputProps('validUntil')}
            clock={clock.says}
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

function RelinkCard({ fingerprint }: { fingerprint: Fingerprint }) {
  const link = useLinkFingerprintUser();
  const [userId, setUserId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    if (!userId) return;
    setError(null);
    try {
      const saved = await link.mutateAsync({ fingerprintId: fingerprint._id, userId });
      setUserId(null);
      notifications.show({
        color: 'teal',
        title: 'Fingerprint linked',
        message: `${titleOf(saved)} now opens ${saved.device.name} for ${saved.holder?.name ?? 'them'}.`,
      });
    } catch (caught) {
      // "They have no access to the lock" belongs under the person chosen.
      setError(
        isApiError(caught) && caught.status === 400
          ? caught.details[0]?.message
            ? sentence(caught.details[0].message)
            : sentence(caught.message)
          : errorMessage(caught),
      );
    }
  };

  return (
    <SectionCard
      title="Link to another person"
      description={`When the finger was recorded for the wrong person. They must be able to open ${fingerprint.device.name}.`}
    >
      <Group gap="sm" align="flex-end" wrap="wrap">
        <PersonSelect
          label="Person"
          value={userId}
          onChange={(next) => {
            setUserId(next);
            setError(null);
          }}
          exclude={fingerprint.holder ? [fingerprint.holder._id] : []}
          error={error}
          style={{ flex: '1 1 220px', minWidth: 0 }}
        />
        <Button
          onClick={() => void submit()}
          disabled={!userId}
          loading={link.isPending}
          leftSection={<IconTransfer size={16} aria-hidden="true" />}
        >
          Link
        </Button>
      </Group>
    </SectionCard>
  );
}

function DeleteFingerprint({ fingerprint }: { fingerprint: Fingerprint }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useDeleteFingerprint();
  const [confirming, { open, close }] = useDisclosure(false);

  const confirmDelete = async () => {
    try {
      await remove.mutateAsync(fingerprint._id);
      close();
      notifications.show({
        color: 'teal',
        title: 'Fingerprint deleted',
        message: `${fingerprint.device.name} no longer accepts ${titleOf(fingerprint)}.`,
      });
      await navigate(backOf(fingerprint).to);
      queryClient.removeQueries({ queryKey: fingerprintKeys.detail(fingerprint._id) });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Could not delete the fingerprint',
        message: errorMessage(error),
      });
    }
  };

  return (
    <>
      <Button
        color="red"
        variant="light"
        leftSection={<IconTrash size={16} aria-hidden="true" />}
        onClick={open}
      >
        Delete
      </Button>
      <ConfirmDialog
        opened={confirming}
        onClose={close}
        title={`Delete ${titleOf(fingerprint)}?`}
        confirmLabel="Delete fingerprint"
        loading={remove.isPending}
        onConfirm={() => void confirmDelete()}
      >
        {`${fingerprint.device.name} stops accepting this finger at once. To use it again, enrol it again at the lock.`}
      </ConfirmDialog>
    </>
  );
}

/** /app/fingerprint/:id (admin): a fingerprint's holder, lock and finger; edit, re-link, delete. */
export function FingerprintPage() {
  const { id = '' } = useParams();
  return (
    <RecordPage
      query={useFingerprint(id)}
      noun="fingerprint"
      back={{ to: paths.app.members.href(), label: 'All people' }}
      header={(fingerprint) => ({
        back: backOf(fingerprint),
        title: titleOf(fingerprint),
        description: `${fingerLabel(fingerprint.finger)} · enrolled at ${fingerprint.device.name}`,
        aside: <DeleteFingerprint fingerprint={fingerprint} />,
      })}
    >
      {(fingerprint) => (
        <>
          <Group gap={6} wrap="wrap" mt={-8}>
            <ValidityBadge validFrom={fingerprint.validFrom} validUntil={fingerprint.validUntil} size="lg" />
          </Group>
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Stack gap="lg">
                <FactsCard fingerprint={fingerprint} />
                <RelinkCard fingerprint={fingerprint} />
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <EditCard
                key={`${fingerprint._id}:${fingerprint.finger}:${fingerprint.name}:${fingerprint.validFrom}:${fingerprint.validUntil}`}
                fingerprint={fingerprint}
              />
            </Grid.Col>
          </Grid>
        </>
      )}
    </RecordPage>
  );
}
