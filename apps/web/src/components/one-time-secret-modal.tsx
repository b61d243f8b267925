import {
  ActionIcon,
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import type { ReactNode } from 'react';

interface OneTimeSecretModalProps {
  /** The secret to show; the modal is open while it is set. */
  secret: string | null;
  onClose: () => void;
  title: string;
  /** What the secret is called ("Device secret"). */
  label: string;
  /** What it is for, in a sentence. */
  description: ReactNode;
  /** Actions beside "Done" (e.g. a link to the new record). */
  actions?: ReactNode;
}

/**
 * Shows a secret the server returns once and keeps only a hash of: a device secret, a generated
 * password. It does not close by a stray click or Escape, only by the explicit button.
 */
export function OneTimeSecretModal({
  secret,
  onClose,
  title,
  label,
  description,
  actions,
}: OneTimeSecretModalProps) {
  return (
    <Modal
      opened={secret !== null}
      onClose={onClose}
      title={title}
      centered
      size="md"
      closeOnClickOutside={false}
      closeOnEscape={false}
      withCloseButton={false}
    >
      <Stack gap="md">
        <Text size="sm">{description}</Text>
        <div>
          <Text size="sm" fw={600} mb={6} id="one-time-secret-label">
            {label}
          </Text>
          <Group gap="xs" wrap="nowrap" align="center">
            <Code
              block
              aria-labelledby="one-time-secret-label"
              fz="md"
              style={{ flex: 1, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap', userSelect: 'all' }}
            >
              {secret}
            </Code>
            <CopyButton value={secret ?? ''} timeout={2000}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow position="left">
                  <ActionIcon
                    variant={copied ? 'filled' : 'light'}
                    color={copied ? 'teal' : undefined}
                    size="lg"
                    onClick={copy}
                    aria-label={copied ? `${label} copied` : `Copy ${label.toLowerCase()}`}
                  >
                    {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
        </div>
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle aria-hidden="true" />}>
          Copy it now: you will not see it again. Latchkey does not keep it in readable form.
        </Alert>
        <Group justify="flex-end" gap="sm">
          {actions}
          <Button onClick={onClose} data-autofocus>
            I have saved it
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
