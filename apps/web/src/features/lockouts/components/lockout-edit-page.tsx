import type { LockoutRecord } from '@latchkey/shared';
import {
  Alert,
  Button,
  Group,
  MultiSelect,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle } from '@tabler/icons-react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { DateTimeInput } from '@/components/date-time-input';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { useFormMutation } from '@/lib/forms';
import { usePortalTimeZone } from '@/lib/zoned-time';
import { useCreateLockout } from '../api/create-lockout';
import { LOCK_OPTIONS_LIMIT, useLockOptions } from '@/features/devices/api/get-devices';
import { useLockout } from '../api/get-lockout';
import { useUpdateLockout } from '../api/update-lockout';
import { BackLink } from './back-to-lockouts';
import {
  friendlyLockoutErrors,
  initialLockoutValues,
  LOCKOUT_LABELS,
  toLockoutInput,
  validateLockout,
  type LockoutValues,
} from './lockout-form';
import { lockoutClock } from './lockout-text';
import { RecordPage } from '@/components/record-page';

function LockoutForm({ lockout, lockIds = [] }: { lockout?: LockoutRecord; lockIds?: string[] }) {
  const navigate = useNavigate();
  const create = useCreateLockout();
  const update = useUpdateLockout();
  const locks = useLockOptions();
  const portalZone = usePortalTimeZone();
  const saving = create.isPending || update.isPending;

  // The lockout's own locks stay choosable even beyond the first page of locks.
  const options = new Map<string, { name: string; timeZone: string }>(
    (locks.data?.items ?? []).map((device) => [device._id, device]),
  );
  for (const device of lockout?.devices ?? []) if (!options.has(device._id)) options.set(device._id, device);
  const data = [...options].map(([value, device]) => ({ value, label: device.name }));

  const form = useForm<LockoutValues>({
    mode: 'controlled',
    initialValues: lockout
      ? initialLockoutValues(lockoutClock(lockout.devices, portalZone).timeZone, lockout)
      : { ...initialLockoutValues(portalZone), deviceIds: lockIds },
    // Read at submit: the chosen locks (and so the clock) may change after the form is drawn.
    validate: (values) => validateLockout(values, clockOf(values).timeZone),
  });
  /** The clock of the chosen locks (lockoutClock): theirs when they share a zone, else the portal's. */
  function clockOf(values: LockoutValues) {
    const chosen = values.deviceIds.flatMap((id) => {
      const device = options.get(id);
      return device ? [device] : [];
    });
    return lockoutClock(chosen, portalZone);
  }
  const clock = clockOf(form.values);
  const backTo = lockout ? paths.app.lockout.href(lockout._id) : paths.app.lockouts.href();

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      const input = toLockoutInput(values, clockOf(values).timeZone);
      const saved = lockout
        ? await update.mutateAsync({ lockoutId: lockout._id, ...input })
        : await create.mutateAsync(input);
      notifications.show({
        color: 'teal',
        title: lockout ? 'Lockout saved' : 'Lockout created',
        message: `${saved.name} keeps ${saved.devices.length === 1 ? '1 lock' : `${saved.devices.length} locks`} shut.`,
      });
      await navigate(paths.app.lockout.href(saved._id), { replace: true });
    },
    labels: LOCKOUT_LABELS,
    adjustErrors: (errors) => friendlyLockoutErrors(errors),
    otherwise: lockout ? 'Could not save the lockout' : 'Could not create the lockout',
  });

  const timeHint = `On ${clock.says}.`;

  return (
    <form onSubmit={submit} noValidate aria-label={lockout ? 'Edit lockout' : 'New lockout'}>
      <Stack gap="lg">
        <SectionCard title="Lockout">
          <Stack gap="md">
            <TextInput
              label={LOCKOUT_LABELS.name}
              placeholder="Floor works"
              required
              maxLength={80}
              data-autofocus
              {...form.getInputProps('name')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <DateTimeInput
                label={LOCKOUT_LABELS.from}
                description={timeHint}
                required
                {...form.getInputProps('from')}
              />
              <Stack gap="xs">
                <DateTimeInput
                  label={LOCKOUT_LABELS.until}
                  description={form.values.noEnd ? 'No end: the locks stay shut until you end it.' : timeHint}
                  required={!form.values.noEnd}
                  disabled={form.values.noEnd}
                  {...form.getInputProps('until')}
                />
                <Switch
                  label="No end"
                  {...form.getInputProps('noEnd', { type: 'checkbox' })}
                  onChange={(event) => {
                    form.setFieldValue('noEnd', event.currentTarget.checked);
                    form.clearFieldError('until');
                  }}
                />
              </Stack>
            </SimpleGrid>
            {clock.note && (
              <Text size="xs" c="dimmed" mt={-8}>
                {clock.note}
              </Text>
            )}
            <Switch
              label={LOCKOUT_LABELS.exemptAdmins}
              description="Portal admins can still open the locks, e.g. to check on the works."
              {...form.getInputProps('exemptAdmins', { type: 'checkbox' })}
            />
          </Stack>
        </SectionCard>
        <SectionCard title="Locks" description="The locks kept shut during the period.">
          {locks.error ? (
            <QueryError
              title="Could not load the locks"
              error={locks.error}
              onRetry={() => void locks.refetch()}
            />
          ) : (
            <Stack gap="xs">
              <MultiSelect
                label={LOCKOUT_LABELS.deviceIds}
                placeholder={form.values.deviceIds.length ? undefined : 'Choose locks'}
                data={data}
                searchable
                clearable
                hidePickedOptions
                nothingFoundMessage={locks.isPending ? 'Loading locks…' : 'No lock matches'}
                required
                comboboxProps={{ withinPortal: true }}
                {...form.getInputProps('deviceIds')}
              />
              {(locks.data?.total ?? 0) > LOCK_OPTIONS_LIMIT && (
                <Alert color="yellow" variant="light" icon={<IconInfoCircle aria-hidden="true" />}>
                  Only the first {LOCK_OPTIONS_LIMIT} locks by name are offered here.
                </Alert>
              )}
            </Stack>
          )}
        </SectionCard>
        <Group justify="flex-end" gap="sm">
          <Button component={Link} to={backTo} variant="default" disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            {lockout ? 'Save lockout' : 'Create lockout'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /app/lockout/edit/:lockoutId (admin): create (`new`) or edit a lockout. */
export function LockoutEditPage() {
  const { lockoutId = 'new' } = useParams();
  const creating = lockoutId === 'new';
  // `?locks=a,b`: the locks chosen on the lock list ("Lock out…"), already in the form.
  const [search] = useSearchParams();
  const lockIds = (search.get('locks') ?? '').split(',').filter((id) => /^[A-Za-z0-9_-]{1,64}$/.test(id));
  const query = useLockout(lockoutId, { enabled: !creating });

  if (creating) {
    return (
      <Stack gap="lg">
        <BackLink />
        <PageHeader title="New lockout" description="Keep chosen locks shut for a period." />
        <LockoutForm lockIds={lockIds} />
      </Stack>
    );
  }
  return (
    <RecordPage
      query={query}
      noun="lockout"
      back={{ to: paths.app.lockouts.href(), label: 'All lockouts' }}
      skeleton={<Skeleton height={320} radius="lg" />}
      header={(lockout) => ({
        back: { to: paths.app.lockout.href(lockout._id), label: lockout.name },
        title: `Edit ${lockout.name}`,
      })}
    >
      {(lockout) => (
        <>
          <Text size="sm" c="dimmed" mt={-12}>
            Saving replaces the period, the exemption and the locks.
          </Text>
          <LockoutForm key={lockout._id} lockout={lockout} />
        </>
      )}
    </RecordPage>
  );
}
