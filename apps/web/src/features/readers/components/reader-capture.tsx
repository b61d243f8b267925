import type { EnrollmentKind, Reader } from '@latchkey/shared';
import { Alert, Anchor, Button, Group, Loader, Paper, Select, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconFingerprint, IconId } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { useCancelEnrollment } from '../api/cancel-enrollment';
import { useEnrollment } from '../api/get-enrollment';
import { useReaders } from '../api/get-readers';
import { useStartEnrollment } from '../api/start-enrollment';

const WORDS = {
  rfid: { button: 'Tap a card now', thing: 'card', waiting: 'Tap the card on', value: 'card UID' },
  fingerprint: {
    button: 'Scan a finger now',
    thing: 'finger',
    waiting: 'Place the finger on',
    value: 'template id',
  },
} as const;

const readsKind = (reader: Reader, kind: EnrollmentKind) => reader.kind === 'both' || reader.kind === kind;

interface ReaderCaptureProps {
  kind: EnrollmentKind;
  /** The person the card or finger is for. */
  userId: string;
  /** The reader's answer: the card UID (upper-case hex) or the template id. */
  onCaptured: (value: string) => void;
}

/**
 * "Tap a card now" / "Scan a finger now" on a person's card and fingerprint forms: asks a paired
 * desk reader for the value, waits (polling the enrollment) and fills the form's field with it.
 */
export function ReaderCapture({ kind, userId, onCaptured }: ReaderCaptureProps) {
  const words = WORDS[kind];
  const readers = useReaders();
  const usable = (readers.data?.items ?? []).filter((reader) => readsKind(reader, kind));
  const [chosen, setChosen] = useState<string | null>(null);
  const readerId = chosen ?? usable.find((reader) => reader.online)?._id ?? usable[0]?._id ?? null;
  const [enrollmentId, setEnrollmentId] = useState<string | null>(null);
  const start = useStartEnrollment();
  const cancel = useCancelEnrollment();
  const enrollment = useEnrollment(enrollmentId);
  const [captured, setCaptured] = useState<string | null>(null);
  const handled = useRef<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const state = enrollment.data?.state;

  useEffect(() => {
    if (state !== 'waiting') return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [state]);

  useEffect(() => {
    const data = enrollment.data;
    if (data?.state === 'read' && data.value && handled.current !== data._id) {
      handled.current = data._id;
      setCaptured(data.value);
      onCaptured(data.value);
    }
  }, [enrollment.data, onCaptured]);

  if (readers.isPending || readers.error) return null;
  if (usable.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        A desk reader can fill this in for you:{' '}
        <Anchor component={Link} to={paths.app.readers.href()} size="sm">
          pair one under Desk readers
        </Anchor>
        .
      </Text>
    );
  }

  const waiting = state === 'waiting' && enrollment.data !== undefined;
  const secondsLeft = waiting
    ? Math.max(0, Math.ceil((new Date(enrollment.data!.expiresAt).getTime() - now) / 1000))
    : 0;
  const readerName = enrollment.data?.reader.name ?? usable.find((r) => r._id === readerId)?.name ?? '';

  const begin = () => {
    if (!readerId) return;
    setCaptured(null);
    start.mutate({ readerId, kind, userId }, { onSuccess: (started) => setEnrollmentId(started._id) });
  };

  return (
    <Paper withBorder radius="md" p="sm">
      <Stack gap="xs">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            label="Desk reader"
            data={usable.map((reader) => ({
              value: reader._id,
              label: `${reader.name}${reader.online ? '' : ' (offline)'}`,
            }))}
            value={readerId}
            onChange={setChosen}
            allowDeselect={false}
            disabled={waiting}
            comboboxProps={{ withinPortal: true }}
            style={{ flex: '1 1 12rem' }}
          />
          {waiting ? (
            <Button
              type="button"
              variant="default"
              loading={cancel.isPending}
              onClick={() => cancel.mutate(enrollmentId!)}
            >
              Cancel
            </Button>
          ) : (
            <Button
              type="button"
              variant="light"
              leftSection={kind === 'rfid' ? <IconId size={16} /> : <IconFingerprint size={16} />}
              loading={start.isPending}
              disabled={!readerId}
              onClick={begin}
            >
              {words.button}
            </Button>
          )}
        </Group>
        <div role="status" aria-live="polite">
          {waiting && (
            <Group gap="xs" wrap="nowrap">
              <Loader size="xs" aria-hidden="true" />
              <Text size="sm">
                {words.waiting} {readerName}… {secondsLeft} s left
              </Text>
            </Group>
          )}
          {!waiting && captured && (
            <Group gap="xs" wrap="nowrap">
              <IconCheck size={16} aria-hidden="true" color="var(--mantine-color-teal-7)" />
              <Text size="sm">
                Read the {words.value} {captured} from {readerName}.
              </Text>
            </Group>
          )}
          {state === 'cancelled' && <Text size="sm">Stopped waiting for the {words.thing}.</Text>}
        </div>
        {(state === 'expired' || state === 'failed' || start.error) && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden="true" />} role="alert">
            {start.error
              ? errorMessage(start.error)
              : state === 'expired'
                ? `No ${words.thing} was read within 60 seconds. Try again.`
                : `${readerName} could not read the ${words.thing} (${enrollment.data?.error ?? 'failed'}). Try again.`}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
