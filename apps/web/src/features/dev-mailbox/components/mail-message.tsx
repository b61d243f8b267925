import type { OutboxMessage } from '@latchkey/shared';
import { Badge, Box, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatDateTime } from '@/lib/format';
import { LinkifiedText } from './linkified-text';

export type MailStatus = 'queued' | 'sent' | 'failed';

export function mailStatus(message: OutboxMessage): MailStatus {
  if (message.failedAt) return 'failed';
  if (message.sentAt) return 'sent';
  return 'queued';
}

const STATUS_COLOR: Record<MailStatus, string> = { queued: 'yellow', sent: 'teal', failed: 'red' };
const STATUS_LABEL: Record<MailStatus, string> = { queued: 'Queued', sent: 'Sent', failed: 'Failed' };

export function MailStatusBadge({ message }: { message: OutboxMessage }) {
  const status = mailStatus(message);
  return (
    <Badge variant="light" color={STATUS_COLOR[status]} style={{ flexShrink: 0 }}>
      {STATUS_LABEL[status]}
    </Badge>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text component="dt" size="sm" c="dimmed" w={84} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
        {children}
      </Text>
    </Group>
  );
}

/** One message opened: its envelope and delivery, the HTML body (sandboxed) and the text body. */
export function MailMessage({ message }: { message: OutboxMessage }) {
  const status = mailStatus(message);
  return (
    <Stack gap="md">
      <Stack component="dl" gap={4} m={0}>
        <Fact label="Subject">{message.subject}</Fact>
        <Fact label="To">{message.to}</Fact>
        <Fact label="Kind">
          <Text span size="sm" ff="monospace">
            {message.template}
          </Text>
        </Fact>
        <Fact label="Written">{formatDateTime(message.createdAt)}</Fact>
        <Fact label="Status">
          {status === 'sent' && message.sentAt && `Sent ${formatDateTime(message.sentAt)}`}
          {status === 'failed' && message.failedAt && `Failed ${formatDateTime(message.failedAt)}, gave up`}
          {status === 'queued' && 'Waiting to be sent'}
          {` · ${message.attempts} ${message.attempts === 1 ? 'attempt' : 'attempts'}`}
        </Fact>
        {message.lastError && (
          <Fact label="Last error">
            <Text span size="sm" c="red" ff="monospace">
              {message.lastError}
            </Text>
          </Fact>
        )}
      </Stack>
      <Box>
        <Title order={3} fz="sm" mb={6}>
          HTML
        </Title>
        <Paper withBorder radius="md" style={{ overflow: 'hidden', background: 'white' }}>
          <iframe
            title={`HTML body of “${message.subject}”`}
            srcDoc={message.html}
            sandbox=""
            referrerPolicy="no-referrer"
            style={{ display: 'block', width: '100%', height: 380, border: 0, background: 'white' }}
          />
        </Paper>
      </Box>
      <Box>
        <Title order={3} fz="sm" mb={6}>
          Text
        </Title>
        <Paper withBorder radius="md" p="sm">
          <Text
            component="pre"
            size="sm"
            m={0}
            ff="monospace"
            style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          >
            <LinkifiedText text={message.text} />
          </Text>
        </Paper>
      </Box>
    </Stack>
  );
}
