import { emailParamsSchema } from '@latchkey/shared';
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconCircleCheck, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { formResolver, useFormMutation } from '@/lib/forms';
import { useRequestActivation } from '../api/email-verification';

const LABELS = { email: 'Email' };

interface ResendActivationProps {
  /** The signed-in person's address: then there is only the button. Otherwise the person types it. */
  email?: string;
  /** The button's words. */
  label?: string;
}

/** Sends the confirmation mail again (POST auth/activation/{email}); the answer never says whether the address has an account. */
export function ResendActivation({ email, label = 'Send the mail again' }: ResendActivationProps) {
  const request = useRequestActivation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<{ email: string }>({
    mode: 'uncontrolled',
    initialValues: { email: email ?? '' },
    validate: formResolver(emailParamsSchema, LABELS),
  });

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      setFormError(null);
      const address = (email ?? values.email).trim().toLowerCase();
      await request.mutateAsync(address);
      setSentTo(address);
    },
    labels: LABELS,
    // With the address given, a detail about it is no field's: it is told above the button.
    adjustErrors: (errors) => (email ? {} : errors),
    otherwise: (message) => setFormError(message),
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Send the confirmation mail again">
      <Stack gap="sm">
        {sentTo && (
          <Alert color="teal" variant="light" icon={<IconCircleCheck aria-hidden="true" />} role="status">
            {email
              ? `A new link is on its way to ${sentTo}. It replaces the ones sent before.`
              : `If ${sentTo} has an account waiting for confirmation, a new link is on its way.`}
          </Alert>
        )}
        {formError && (
          <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
            {formError}
          </Alert>
        )}
        {!email && (
          <TextInput
            label={LABELS.email}
            type="email"
            inputMode="email"
            autoComplete="email"
            required
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
        )}
        <Group>
          <Button
            type="submit"
            loading={request.isPending}
            leftSection={<IconSend size={18} aria-hidden="true" />}
            variant={sentTo ? 'default' : 'filled'}
          >
            {sentTo ? 'Send it again' : label}
          </Button>
        </Group>
        {sentTo && (
          <Text size="xs" c="dimmed">
            Nothing after a few minutes? Look in your spam folder.
          </Text>
        )}
      </Stack>
    </form>
  );
}
