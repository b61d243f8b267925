import { accessCodeInputSchema, type PortalMember } from '@latchkey/shared';
import { ActionIcon, Button, Code, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconDice5, IconEye, IconEyeOff } from '@tabler/icons-react';
import { useState } from 'react';
import { SectionCard } from '@/components/section-card';
import { formResolver, useFormMutation } from '@/lib/forms';
import { displayName } from '@/lib/session';
import { useSetAccessCode } from '../api/set-access-code';
import { ACCESS_CODE_PATTERN, generateAccessCode } from './access-code';

interface CodeValues {
  code: string;
}

const LABELS = { code: 'New access code' };

interface AccessCodeCardProps {
  member: PortalMember;
  accessCode: string | null;
}

/** The person's access code (PIN) in this portal: see it, set or change it, generate one, clear it. */
export function AccessCodeCard({ member, accessCode }: AccessCodeCardProps) {
  const save = useSetAccessCode();
  const [revealed, setRevealed] = useState(false);
  const [clearing, setClearing] = useState(false);
  const resolve = formResolver<CodeValues>(accessCodeInputSchema, LABELS, (values) => ({
    userId: member._id,
    code: values.code,
  }));
  const form = useForm<CodeValues>({
    mode: 'controlled',
    initialValues: { code: '' },
    validate: (values) => {
      const errors = resolve(values);
      if (!errors.code && !ACCESS_CODE_PATTERN.test(values.code)) {
        errors.code = 'Access code must be 4 to 12 digits';
      }
      return errors;
    },
  });

  const { submit, run: send } = useFormMutation(form, {
    // An empty code clears it (the Clear button; a submitted code is never empty).
    run: async ({ code }) => {
      const saved = await save.mutateAsync({ userId: member._id, code: code || null });
      form.reset();
      setRevealed(false);
      notifications.show({
        color: 'teal',
        title: saved.accessCode ? 'Access code saved' : 'Access code cleared',
        message: saved.accessCode
          ? `${displayName(member)} opens keypad locks with the new code.`
          : `${displayName(member)} has no access code now.`,
      });
    },
    labels: LABELS,
    // The rule the code breaks (length on some keypad, already in use) belongs on the field.
    onStatus: { 400: 'code' },
    otherwise: 'Could not save the code',
  });

  const clear = async () => {
    setClearing(true);
    await send({ code: '' });
    setClearing(false);
  };

  return (
    <SectionCard
      title="Access code"
      description="The PIN they type on keypad locks. It works on every keypad lock they can open here."
    >
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap">
          <Text size="sm" c="dimmed">
            Current code:
          </Text>
          {accessCode ? (
            <>
              <Code fz="md" aria-label={revealed ? 'Current code' : 'Current code, hidden'}>
                {revealed ? accessCode : '•'.repeat(accessCode.length)}
              </Code>
              <Tooltip label={revealed ? 'Hide' : 'Show'}>
                <ActionIcon
                  variant="subtle"
                  onClick={() => setRevealed((shown) => !shown)}
                  aria-label={revealed ? 'Hide the code' : 'Show the code'}
                  aria-pressed={revealed}
                >
                  {revealed ? <IconEyeOff size={16} /> : <IconEye size={16} />}
                </ActionIcon>
              </Tooltip>
            </>
          ) : (
            <Text size="sm" fw={500}>
              None yet
            </Text>
          )}
        </Group>
        <form onSubmit={submit} noValidate aria-label="Set access code">
          <Stack gap="sm">
            <Group gap="sm" align="flex-start" wrap="wrap">
              <TextInput
                label={LABELS.code}
                description="4 to 12 digits, different from everyone else's here."
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                inputMode="numeric"
                autoComplete="off"
                maxLength={12}
                styles={{
                  input: { fontFamily: 'var(--mantine-font-family-monospace)', letterSpacing: '0.1em' },
                }}
                style={{ flex: '1 1 180px' }}
                {...form.getInputProps('code')}
                onChange={(event) => form.setFieldValue('code', event.currentTarget.value.replace(/\D/g, ''))}
              />
              <Button
                variant="default"
                mt={25}
                leftSection={<IconDice5 size={16} aria-hidden="true" />}
                onClick={() => form.setFieldValue('code', generateAccessCode())}
              >
                Generate
              </Button>
            </Group>
            <Group justify="flex-end" gap="sm">
              {accessCode && (
                <Button
                  variant="subtle"
                  color="red"
                  onClick={() => void clear()}
                  loading={clearing}
                  disabled={save.isPending && !clearing}
                >
                  Clear code
                </Button>
              )}
              <Button type="submit" loading={save.isPending && !clearing} disabled={!form.values.code}>
                {accessCode ? 'Change code' : 'Set code'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </SectionCard>
  );
}
