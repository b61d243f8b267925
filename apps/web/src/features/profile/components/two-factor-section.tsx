import { PASSWORD_MAX_LENGTH, type TwoFactorState } from '@latchkey/shared';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Image,
  List,
  PasswordInput,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconCheck, IconCopy, IconRefresh, IconShieldCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { errorMessage } from '@/lib/errors';
import { useFormMutation } from '@/lib/forms';
import { useChangeTwoFactor, useRefreshTwoFactor, useTwoFactor } from '../api/two-factor';
import { RecoveryCodesModal } from './recovery-codes-modal';

const APP_CODE = /^\d{6}$/;
const ANY_CODE = /^(\d{6}|[a-z2-7]{5}-[a-z2-7]{5})$/i;

/** The base32 secret inside an otpauth URI, for typing into an app by hand. */
export function secretOf(otpauthUri: string | null): string | null {
  if (!otpauthUri) return null;
  const match = /[?&]secret=([^&#]+)/i.exec(otpauthUri);
  return match ? decodeURIComponent(match[1]!).toUpperCase() : null;
}

/** "JBSW Y3DP EHPK 3PXP": groups of four are easier to type. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

function digitsOnly(value: string): string {
  return value.replace(/\D/g, '').slice(0, 6);
}

/** Off: scan the secret, then prove it works with a code (the answer's recovery codes are shown once). */
function EnableTwoFactor({
  state,
  onEnabled,
}: {
  state: TwoFactorState;
  /** The recovery codes; shown by the section, as this part makes way for the "on" state. */
  onEnabled: (recoveryCodes: string[]) => void;
}) {
  const refresh = useRefreshTwoFactor();
  const change = useChangeTwoFactor();
  const [formError, setFormError] = useState<string | null>(null);
  const secret = secretOf(state.otpauthUri);
  const form = useForm<{ code: string }>({
    mode: 'controlled',
    initialValues: { code: '' },
    validate: { code: (value) => (APP_CODE.test(value) ? null : 'Enter the 6 digits your app shows') },
  });

  const { submit } = useFormMutation(form, {
    run: async ({ code }) => {
      setFormError(null);
      const answer = await change.mutateAsync({ enable: true, code });
      onEnabled(answer.recoveryCodes);
    },
    // The server says "is not a valid code": "This is not a valid code".
    labels: { code: 'This' },
    onStatus: { 400: () => form.setFieldError('code', 'That code is not right; try the newest one') },
    otherwise: (message) => setFormError(message),
  });

  const makeNewSecret = () => {
    setFormError(null);
    refresh.mutate(undefined, {
      onSuccess: () =>
        notifications.show({
          color: 'teal',
          title: 'New secret made',
          message: 'Scan the new QR code; the old one no longer works.',
        }),
      onError: (error) =>
        notifications.show({
          color: 'red',
          title: 'Could not make a new secret',
          message: errorMessage(error),
        }),
    });
  };

  return (
    <Stack gap="md">
      <List type="ordered" spacing="xs" size="sm">
        <List.Item>
          Install an authenticator app on your phone (1Password, Google Authenticator, Aegis…).
        </List.Item>
        <List.Item>Scan this QR code with it, or type the key below.</List.Item>
        <List.Item>Enter the 6-digit code the app then shows.</List.Item>
      </List>
      <Group gap="lg" align="flex-start" wrap="wrap">
        {state.qrCode ? (
          <Image
            src={state.qrCode}
            alt="QR code to scan with your authenticator app"
            w={176}
            h={176}
            radius="md"
            style={{
              background: 'white',
              border: '1px solid var(--mantine-color-default-border)',
              padding: 8,
            }}
          />
        ) : (
          <Skeleton w={176} h={176} radius="md" />
        )}
        <Stack gap="xs" style={{ flex: '1 1 220px', minWidth: 0 }}>
          <Text size="sm" fw={500} id="two-factor-key">
            Can’t scan? Enter this key
          </Text>
          {secret && (
            <Group gap="xs" wrap="nowrap" align="center">
              <Code
                block
                aria-labelledby="two-factor-key"
                fz="sm"
                style={{ flex: 1, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap', userSelect: 'all' }}
              >
                {grouped(secret)}
              </Code>
              <CopyButton value={secret} timeout={2000}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
                    <ActionIcon
                      variant={copied ? 'filled' : 'light'}
                      color={copied ? 'teal' : undefined}
                      size="lg"
                      onClick={copy}
                      aria-label={copied ? 'Key copied' : 'Copy the key'}
                    >
                      {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
          )}
          <Text size="xs" c="dimmed">
            Time-based, 6 digits, every 30 seconds.
          </Text>
          <Group>
            <Button
              variant="subtle"
              size="xs"
              px={0}
              leftSection={<IconRefresh size={14} aria-hidden="true" />}
              loading={refresh.isPending}
              onClick={makeNewSecret}
            >
              Make a new secret
            </Button>
          </Group>
        </Stack>
      </Group>
      <form onSubmit={submit} noValidate aria-label="Turn on two-factor sign-in">
        <Stack gap="sm">
          {formError && (
            <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
              {formError}
            </Alert>
          )}
          <TextInput
            label="Code from the app"
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="123456"
            required
            maw={360}
            styles={{ input: { letterSpacing: '0.25em', fontVariantNumeric: 'tabular-nums' } }}
            {...form.getInputProps('code')}
            onChange={(event) => form.setFieldValue('code', digitsOnly(event.currentTarget.value))}
            // The button sits beside the input itself; an error goes below both.
            inputContainer={(input) => (
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <div style={{ flex: 1, minWidth: 0 }}>{input}</div>
                <Button type="submit" loading={change.isPending} style={{ flexShrink: 0 }}>
                  Turn on
                </Button>
              </Group>
            )}
          />
        </Stack>
      </form>
    </Stack>
  );
}

interface DisableValues {
  password: string;
  code: string;
}

const DISABLE_LABELS: Record<keyof DisableValues, string> = { password: 'Current password', code: 'Code' };

/** On: how many recovery codes are left, and turning it off with the password and a code. */
function DisableTwoFactor({ state }: { state: TwoFactorState }) {
  const change = useChangeTwoFactor();
  const [open, setOpen] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<DisableValues>({
    mode: 'uncontrolled',
    initialValues: { password: '', code: '' },
    validate: {
      password: (value) =>
        !value
          ? 'Current password is required'
          : value.length > PASSWORD_MAX_LENGTH
            ? 'Password is too long'
            : null,
      code: (value) =>
        ANY_CODE.test(value.trim()) ? null : 'Enter the 6-digit code from your app or a recovery code',
    },
  });
  const low = state.recoveryCodesLeft <= 3;

  const { submit } = useFormMutation(form, {
    run: async ({ password, code }) => {
      setFormError(null);
      await change.mutateAsync({ enable: false, password, code: code.trim().toLowerCase() });
      notifications.show({
        color: 'teal',
        title: 'Two-factor sign-in is off',
        message: 'Signing in asks only for your password again.',
      });
    },
    labels: { ...DISABLE_LABELS, code: 'This' },
    adjustErrors: (errors) =>
      errors.password ? { ...errors, password: 'Current password is not right' } : errors,
    otherwise: (message) => setFormError(message),
  });

  return (
    <Stack gap="md">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <IconShieldCheck
          size={28}
          color="var(--mantine-color-teal-6)"
          aria-hidden="true"
          style={{ flexShrink: 0 }}
        />
        <Text size="sm">Signing in asks for a code from your authenticator app after your password.</Text>
      </Group>
      <Text size="sm" c={low ? 'orange' : undefined} fw={low ? 600 : undefined}>
        {state.recoveryCodesLeft === 1
          ? '1 recovery code left.'
          : `${state.recoveryCodesLeft} recovery codes left.`}
        {low && ' To get new ones, turn two-factor sign-in off and on again.'}
      </Text>
      {!open && (
        <Group>
          <Button variant="default" color="red" onClick={() => setOpen(true)}>
            Turn off…
          </Button>
        </Group>
      )}
      {open && (
        <form onSubmit={submit} noValidate aria-label="Turn off two-factor sign-in">
          <Stack gap="md">
            {formError && (
              <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
                {formError}
              </Alert>
            )}
            <PasswordInput
              label={DISABLE_LABELS.password}
              autoComplete="current-password"
              required
              key={form.key('password')}
              {...form.getInputProps('password')}
            />
            <TextInput
              label={DISABLE_LABELS.code}
              description="From your app, or a recovery code."
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              required
              key={form.key('code')}
              {...form.getInputProps('code')}
            />
            <Group justify="flex-end" gap="sm">
              <Button
                variant="default"
                onClick={() => {
                  setOpen(false);
                  form.reset();
                  setFormError(null);
                }}
                disabled={change.isPending}
              >
                Cancel
              </Button>
              <Button type="submit" color="red" loading={change.isPending}>
                Turn off two-factor sign-in
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

/** Two-factor sign-in (TOTP): set up, turn on, see recovery codes left, turn off. */
export function TwoFactorSection() {
  const twoFactor = useTwoFactor();
  const state = twoFactor.data;
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <SectionCard
      title="Two-factor sign-in"
      description="A code from an app on your phone, asked for after your password."
      aside={
        state && (
          <Badge variant="light" color={state.enabled ? 'teal' : 'gray'} size="lg">
            {state.enabled ? 'On' : 'Off'}
          </Badge>
        )
      }
    >
      {twoFactor.isPending ? (
        <Stack gap="sm" role="status" aria-label="Loading two-factor sign-in">
          <Skeleton height={16} width="70%" />
          <Skeleton height={176} width={176} radius="md" />
        </Stack>
      ) : twoFactor.error ? (
        <QueryError
          title="Could not load two-factor sign-in"
          error={twoFactor.error}
          onRetry={() => void twoFactor.refetch()}
        />
      ) : state?.enabled ? (
        <DisableTwoFactor state={state} />
      ) : (
        state && <EnableTwoFactor state={state} onEnabled={setCodes} />
      )}
      <RecoveryCodesModal
        codes={codes}
        onClose={() => {
          setCodes(null);
          notifications.show({
            color: 'teal',
            title: 'Two-factor sign-in is on',
            message: 'From now on, signing in asks for a code from your app.',
          });
        }}
      />
    </SectionCard>
  );
}
