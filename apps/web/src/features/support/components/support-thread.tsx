import { supportReplyInputSchema, type SupportRequestDetail } from '@latchkey/shared';
import { Badge, Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { formatDateTime } from '@/lib/format';
import { formResolver, useFormMutation } from '@/lib/forms';

const FROM_TEXT = {
  requester: { label: 'Requester', color: 'gray' },
  portal: { label: 'Portal admin', color: 'violet' },
  staff: { label: 'Latchkey support', color: 'blue' },
} as const;

/** A request's description and messages, oldest first. */
export function SupportThread({ request }: { request: SupportRequestDetail }) {
  return (
    <Stack gap="sm" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Messages">
      <Paper component="li" withBorder radius="md" p="sm">
        <Group justify="space-between" gap="xs" mb={4} wrap="wrap">
          <Group gap="xs">
            <Text fw={600} size="sm">
              {request.requester.name}
            </Text>
            <Badge variant="light" color="gray" size="sm">
              Request
            </Badge>
          </Group>
          <Text size="xs">{formatDateTime(request.createdAt)}</Text>
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {request.description}
        </Text>
      </Paper>
      {request.messages.map((message) => (
        <Paper
          component="li"
          key={message._id}
          withBorder
          radius="md"
          p="sm"
          bg={message.from === 'staff' ? 'var(--mantine-color-blue-light)' : undefined}
        >
          <Group justify="space-between" gap="xs" mb={4} wrap="wrap">
            <Group gap="xs">
              <Text fw={600} size="sm">
                {message.author.name}
              </Text>
              <Badge variant="light" color={FROM_TEXT[message.from].color} size="sm">
                {FROM_TEXT[message.from].label}
              </Badge>
            </Group>
            <Text size="xs">{formatDateTime(message.createdAt)}</Text>
          </Group>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {message.text}
          </Text>
        </Paper>
      ))}
    </Stack>
  );
}

/** The box for a new message; `send` posts it (the person's reply, or staff's answer). */
export function ReplyForm({
  label,
  submitLabel,
  send,
  pending,
  description,
}: {
  label: string;
  submitLabel: string;
  send: (message: string) => Promise<unknown>;
  /** While the message is on its way. */
  pending: boolean;
  description?: string;
}) {
  const form = useForm({
    initialValues: { message: '' },
    validate: formResolver(supportReplyInputSchema, { message: label }),
  });
  const { submit } = useFormMutation(form, {
    labels: { message: label },
    run: async (values) => {
      await send(values.message);
      form.reset();
    },
    otherwise: 'The message was not sent',
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <Textarea
          label={label}
          description={description}
          autosize
          minRows={3}
          maxRows={12}
          {...form.getInputProps('message')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
