import {
  Alert,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { downloadFile } from '@/lib/download';

interface RecoveryCodesModalProps {
  /** The codes to show; the modal is open while they are set. */
  codes: string[] | null;
  onClose: () => void;
}

function RecoveryCodesBody({ codes, onClose }: { codes: string[]; onClose: () => void }) {
  const [saved, setSaved] = useState(false);
  const text = `Latchkey recovery codes\nEach code works once, in place of the code from your authenticator app.\n\n${codes.join('\n')}\n`;
  return (
    <Stack gap="md">
      <Text size="sm">
        If you lose your phone, each of these codes lets you sign in once instead of a code from the app. Keep
        them somewhere safe, such as a password manager.
      </Text>
      <SimpleGrid
        cols={2}
        spacing="xs"
        component="ul"
        aria-label="Recovery codes"
        m={0}
        p={0}
        style={{ listStyle: 'none' }}
      >
        {codes.map((code) => (
          <li key={code}>
            <Code fz="md" display="block" ta="center" py={6} style={{ userSelect: 'all' }}>
              {code}
            </Code>
          </li>
        ))}
      </SimpleGrid>
      <Group gap="sm" grow>
        <CopyButton value={codes.join('\n')} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              variant={copied ? 'filled' : 'light'}
              color={copied ? 'teal' : undefined}
              onClick={copy}
              leftSection={
                copied ? (
                  <IconCheck size={16} aria-hidden="true" />
                ) : (
                  <IconCopy size={16} aria-hidden="true" />
                )
              }
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
        <Button
          variant="light"
          leftSection={<IconDownload size={16} aria-hidden="true" />}
          onClick={() => downloadFile(text, 'latchkey-recovery-codes.txt', 'text/plain')}
        >
          Download .txt
        </Button>
      </Group>
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle aria-hidden="true" />}>
        You will not see these codes again.
      </Alert>
      <Checkbox
        label="I have saved them"
        checked={saved}
        onChange={(event) => setSaved(event.currentTarget.checked)}
      />
      <Group justify="flex-end">
        <Button onClick={onClose} disabled={!saved}>
          Done
        </Button>
      </Group>
    </Stack>
  );
}

/** The ten recovery codes, shown once when two-factor sign-in is turned on; closes only once saved. */
export function RecoveryCodesModal({ codes, onClose }: RecoveryCodesModalProps) {
  return (
    <Modal
      opened={codes !== null}
      onClose={() => {}}
      title="Save your recovery codes"
      centered
      size="md"
      closeOnClickOutside={false}
      closeOnEscape={false}
      withCloseButton={false}
    >
      {codes && <RecoveryCodesBody codes={codes} onClose={onClose} />}
    </Modal>
  );
}
