import { resellerLinkInputSchema, type BillingOverview, type ResellerLinkInput } from '@latchkey/shared';
import { Button, Checkbox, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { SectionCard } from '@/components/section-card';
import { errorMessage } from '@/lib/errors';
import { formatDate } from '@/lib/format';
import { formResolver, useFormMutation } from '@/lib/forms';
import { useLinkReseller, useSetResellerActing, useUnlinkReseller } from '../api/reseller-link';

const LABELS = { code: 'Reseller code', allowActing: 'Let the reseller act in this portal' };

function LinkForm() {
  const link = useLinkReseller();
  const form = useForm<{ code: string; allowActing: boolean }>({
    mode: 'controlled',
    initialValues: { code: '', allowActing: false },
    validate: formResolver<ResellerLinkInput>(resellerLinkInputSchema, LABELS),
  });
  const { submit } = useFormMutation(form, {
    run: async (values) => {
      const linked = await link.mutateAsync(values);
      notifications.show({
        color: 'teal',
        title: 'Reseller linked',
        message: `${linked.name} now sees this portal's bills.`,
      });
      form.reset();
    },
    labels: LABELS,
    otherwise: 'Could not link the reseller',
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Link a reseller">
      <Stack gap="sm">
        <TextInput
          label={LABELS.code}
          description="The 8-character code your installer or integrator gave you."
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          placeholder="ABCD-EF23"
          maxLength={12}
          autoCapitalize="characters"
          {...form.getInputProps('code')}
        />
        <Checkbox
          label={LABELS.allowActing}
          description="As an admin: to set up locks and people for you. You can stop it at any time."
          {...form.getInputProps('allowActing', { type: 'checkbox' })}
        />
        <Group justify="flex-end">
          <Button type="submit" variant="light" loading={link.isPending}>
            Link reseller
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function LinkedReseller({ billing }: { billing: BillingOverview }) {
  const reseller = billing.reseller!;
  const acting = useSetResellerActing();
  const unlink = useUnlinkReseller();
  const [confirming, { open, close }] = useDisclosure(false);

  const toggle = async (allowActing: boolean) => {
    try {
      await acting.mutateAsync({ allowActing });
      notifications.show({
        color: 'teal',
        title: allowActing ? 'Reseller may act here' : 'Reseller may no longer act here',
        message: allowActing
          ? `${reseller.name} can now work in this portal as an admin.`
          : `${reseller.name} still sees this portal's bills, but can no longer work in it.`,
      });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not change it', message: errorMessage(error) });
    }
  };
  const confirmUnlink = async () => {
    try {
      await unlink.mutateAsync(undefined);
      close();
      notifications.show({
        color: 'teal',
        title: 'Reseller unlinked',
        message: `${reseller.name} is no longer linked.`,
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Could not unlink the reseller',
        message: errorMessage(error),
      });
    }
  };

  return (
    <Stack gap="sm">
      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
        {reseller.name}
      </Text>
      <Text size="sm" c="dimmed">
        Linked since {formatDate(reseller.linkedAt)}. It sees what this portal is billed each month.
      </Text>
      {billing.isOwner ? (
        <>
          <Switch
            label={`Let ${reseller.name} act in this portal`}
            description="As an admin, through its reseller area. Off: billing only."
            checked={reseller.allowActing}
            disabled={acting.isPending}
            onChange={(event) => void toggle(event.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button variant="subtle" color="red" onClick={open}>
              Unlink reseller
            </Button>
          </Group>
          <ConfirmDialog
            opened={confirming}
            onClose={close}
            title={`Unlink ${reseller.name}?`}
            confirmLabel="Unlink"
            loading={unlink.isPending}
            onConfirm={() => void confirmUnlink()}
          >
            It no longer sees this portal&apos;s bills from this month on, nor acts in it. Months already
            closed stay in its summary.
          </ConfirmDialog>
        </>
      ) : (
        <Text size="sm">
          {reseller.allowActing
            ? 'It may act in this portal as an admin.'
            : 'It may not act in this portal (billing only).'}{' '}
          Only the portal&apos;s owner can change this.
        </Text>
      )}
    </Stack>
  );
}

/** The portal's reseller (an installer or integrator): linked by code, trusted or not, by the owner. */
export function ResellerCard({ billing }: { billing: BillingOverview }) {
  return (
    <SectionCard
      title="Reseller"
      description="An installer or integrator who sold you this portal sees its bills, and may act in it if you allow."
    >
      {billing.reseller ? (
        <LinkedReseller billing={billing} />
      ) : billing.isOwner ? (
        <LinkForm />
      ) : (
        <Text size="sm" c="dimmed">
          No reseller is linked. Only the portal&apos;s owner can link one.
        </Text>
      )}
    </SectionCard>
  );
}
