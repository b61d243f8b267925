import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  Group,
  ScrollArea,
  Select,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlayerPlay } from '@tabler/icons-react';
import {
  API_BASE_PATH,
  DEVELOPER_CALL_MAX_BODY_CHARS,
  DEVELOPER_CALL_METHODS,
  type DeveloperCallInput,
  type DeveloperCallMethod,
  type DeveloperCallResult,
} from '@latchkey/shared';
import { useState } from 'react';
import { BackLink } from '@/components/back-link';
import { PageHeader } from '@/components/page-header';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { formatTime } from '@/lib/format';
import { useFormMutation } from '@/lib/forms';
import { api } from '@/lib/api-client';
import { useSession } from '@/lib/session';
import { useRunDeveloperCall } from '../api/run-developer-call';

/** Calls the page keeps, newest first. */
const HISTORY_SIZE = 10;

interface ConsoleValues {
  method: DeveloperCallMethod;
  path: string;
  body: string;
  /** Send the body as a sealed envelope, as the routes that take passwords and secrets want it. */
  sealed: boolean;
  portalOverride: string;
}

const LABELS = {
  method: 'Method',
  path: 'Path',
  body: 'JSON body',
  sealed: 'Seal the body',
  portalOverride: 'Portal',
} as const;

/** What a sealed route answers to a plain body (base/http/sealing on the server). */
const WANTS_SEALED = /sealed envelope/i;

/** One call the page ran: what was asked, and what came back. */
interface HistoryEntry {
  id: number;
  at: string;
  /** What the browser waited, the console's own request included. */
  roundTripMs: number;
  input: ConsoleValues;
  result: DeveloperCallResult;
}

/** Why the body cannot be sent, or null: JSON is checked here before anything leaves the browser. */
export function bodyProblem(method: DeveloperCallMethod, body: string): string | null {
  if (!body.trim()) return null;
  if (method === 'GET') return 'A GET call carries no body: choose another method or empty the body';
  if (body.length > DEVELOPER_CALL_MAX_BODY_CHARS)
    return `The body is longer than ${DEVELOPER_CALL_MAX_BODY_CHARS} characters`;
  try {
    JSON.parse(body);
    return null;
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'it does not parse';
    return `The body is not JSON: ${reason}`;
  }
}

function statusColor(status: number): string {
  if (status >= 500) return 'red';
  if (status >= 400) return 'orange';
  if (status >= 300) return 'blue';
  return 'green';
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

export function statusLabel(status: number): string {
  const text = STATUS_TEXT[status];
  return text ? `${status} ${text}` : String(status);
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const callName = (input: Pick<ConsoleValues, 'method' | 'path'>) =>
  `${input.method} ${API_BASE_PATH}/${input.path.replace(/^\/+/, '')}`;

function AnswerBody({ result }: { result: DeveloperCallResult }) {
  if (result.bodyKind === 'empty') return <Text size="sm">No body.</Text>;
  if (result.bodyKind === 'binary')
    return (
      <Alert color="gray" title="A binary answer">
        {result.contentType ?? 'No content type'}, {formatSize(result.size)}: not shown here. Open the address
        in the browser to download it.
      </Alert>
    );
  const text = result.bodyKind === 'json' ? JSON.stringify(result.body, null, 2) : String(result.body);
  return (
    <Stack gap="xs">
      {result.truncated && (
        <Text size="sm" c="dimmed">
          The answer is {formatSize(result.size)}: only its beginning is shown.
        </Text>
      )}
      <ScrollArea.Autosize mah={480} type="auto">
        <Code
          block
          tabIndex={0}
          aria-label="Answer body"
          style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
        >
          {text}
        </Code>
      </ScrollArea.Autosize>
    </Stack>
  );
}

function CallAnswer({ entry }: { entry: HistoryEntry }) {
  const { result } = entry;
  const headers = Object.entries(result.headers).sort(([a], [b]) => a.localeCompare(b));
  return (
    <SectionCard
      title="Answer"
      aside={
        <Badge size="lg" variant="light" color={statusColor(result.status)} data-testid="answer-status">
          {statusLabel(result.status)}
        </Badge>
      }
      description={
        <>
          <Code>{callName(entry.input)}</Code> · {result.durationMs.toFixed(1)} ms on the server ·{' '}
          {Math.round(entry.roundTripMs)} ms round trip · {formatSize(result.size)}
        </>
      }
    >
      {result.status === 400 && !entry.input.sealed && WANTS_SEALED.test(JSON.stringify(result.body)) && (
        <Alert color="blue" mb="md" title="This route takes a sealed body">
          Tick “{LABELS.sealed}” and run the call again.
        </Alert>
      )}
      <Tabs defaultValue="body" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="body">Body</Tabs.Tab>
          <Tabs.Tab value="headers">Headers ({headers.length})</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="body" pt="md">
          <AnswerBody result={result} />
        </Tabs.Panel>
        <Tabs.Panel value="headers" pt="md">
          <Table.ScrollContainer minWidth={320}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Header</Table.Th>
                  <Table.Th>Value</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {headers.map(([name, value]) => (
                  <Table.Tr key={name}>
                    <Table.Td>
                      <Code>{name}</Code>
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Tabs.Panel>
      </Tabs>
    </SectionCard>
  );
}

function CallHistory({
  entries,
  shown,
  onShow,
}: {
  entries: HistoryEntry[];
  shown: number | null;
  onShow: (entry: HistoryEntry) => void;
}) {
  return (
    <SectionCard
      title="Calls on this page"
      description={`The last ${HISTORY_SIZE}, newest first; choose one to see its answer and fill the form with it.`}
    >
      <Table.ScrollContainer minWidth={420}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>At</Table.Th>
              <Table.Th>Call</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Server time</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((entry) => (
              <Table.Tr
                key={entry.id}
                bg={entry.id === shown ? 'var(--mantine-color-default-hover)' : undefined}
              >
                <Table.Td>{formatTime(entry.at)}</Table.Td>
                <Table.Td>
                  <UnstyledButton
                    onClick={() => onShow(entry)}
                    aria-pressed={entry.id === shown}
                    style={{ textDecoration: 'underline', overflowWrap: 'anywhere' }}
                  >
                    <Text size="sm" ff="monospace" span>
                      {callName(entry.input)}
                    </Text>
                  </UnstyledButton>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={statusColor(entry.result.status)}>
                    {entry.result.status}
                  </Badge>
                </Table.Td>
                <Table.Td>{entry.result.durationMs.toFixed(1)} ms</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </SectionCard>
  );
}

/**
 * /app/devTools/api (platform staff): the API console. Runs one call as the signed-in person through
 * the server (POST system/developerCall, audited there) and shows status, headers, timing and the
 * answer; the page keeps its last calls.
 */
export function ApiConsolePage() {
  const session = useSession();
  const run = useRunDeveloperCall();
  const [history, setHistory] = useState<HistoryEntry[]>([]);
  const [shown, setShown] = useState<number | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<ConsoleValues>({
    mode: 'controlled',
    initialValues: { method: 'GET', path: '', body: '', sealed: false, portalOverride: '' },
    validate: {
      path: (path) => (path.trim() ? null : 'Path is required (for example portal/devices)'),
      body: (body, values) => bodyProblem(values.method, body),
    },
  });

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      setFormError(null);
      // Sealed here, in the browser, with the server's key: the plain body (a password, say) never
      // leaves it, and the server forwards the envelope as it is.
      const body =
        values.sealed && values.body.trim()
          ? JSON.stringify(await api.sealBody(JSON.parse(values.body)))
          : values.body;
      const input: DeveloperCallInput = {
        method: values.method,
        path: values.path.trim(),
        ...(body.trim() && { body }),
        ...(values.portalOverride.trim() && { portalOverride: values.portalOverride.trim() }),
      };
      const started = performance.now();
      const result = await run.mutateAsync(input);
      const entry: HistoryEntry = {
        id: Date.now() + Math.random(),
        at: new Date().toISOString(),
        roundTripMs: performance.now() - started,
        input: values,
        result,
      };
      setHistory((entries) => [entry, ...entries].slice(0, HISTORY_SIZE));
      setShown(entry.id);
    },
    labels: LABELS,
    otherwise: (message) => setFormError(message),
  });

  const formatBody = () => {
    try {
      form.setFieldValue('body', JSON.stringify(JSON.parse(form.getValues().body), null, 2));
    } catch {
      form.validateField('body');
    }
  };

  const showEntry = (entry: HistoryEntry) => {
    setShown(entry.id);
    form.setValues(entry.input);
    form.clearErrors();
  };

  const current = history.find((entry) => entry.id === shown) ?? null;
  const actingIn = session.data?.portal?.name;
  const isGet = form.getValues().method === 'GET';

  return (
    <Stack gap="lg">
      <BackLink to={paths.app.devTools.href()} label="Developer tools" />
      <PageHeader
        title="API console"
        description="Runs one call as you, with exactly your rights. Every call is written to the change log of the portal it acts in."
      />
      <SectionCard title="Call">
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            {formError && (
              <Alert color="red" title="The call did not run">
                {formError}
              </Alert>
            )}
            <Group align="flex-start" gap="sm" wrap="wrap">
              <Select
                label={LABELS.method}
                data={[...DEVELOPER_CALL_METHODS]}
                allowDeselect={false}
                w={120}
                {...form.getInputProps('method')}
              />
              <TextInput
                label={LABELS.path}
                placeholder="portal/devices"
                description="Relative to /api3, with a query string if you like"
                leftSection={
                  // The text's own colour: the section's dimmed grey is under 4.5:1 in the dark scheme.
                  <Text size="sm" c="var(--mantine-color-text)">{`${API_BASE_PATH}/`}</Text>
                }
                leftSectionWidth={50}
                style={{ flex: '1 1 260px' }}
                autoComplete="off"
                spellCheck={false}
                {...form.getInputProps('path')}
              />
            </Group>
            <Textarea
              label={LABELS.body}
              description={
                isGet
                  ? 'A GET call carries no body.'
                  : 'Sent as the call’s body; checked as JSON before it is sent.'
              }
              placeholder={'{ "name": "Front door" }'}
              autosize
              minRows={4}
              maxRows={16}
              spellCheck={false}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              {...form.getInputProps('body')}
            />
            <Checkbox
              label={LABELS.sealed}
              description="Routes that take passwords and secrets (signing in, changing a password, a device secret) want a sealed envelope; their 400 says so. The JSON above is sealed in your browser with the server's key."
              disabled={isGet}
              {...form.getInputProps('sealed', { type: 'checkbox' })}
            />
            <TextInput
              label={LABELS.portalOverride}
              placeholder="A portal id"
              description={`Optional: the portal to act in. Empty: ${actingIn ? `where you act now (${actingIn})` : 'where you act now'}.`}
              autoComplete="off"
              spellCheck={false}
              {...form.getInputProps('portalOverride')}
            />
            <Group gap="sm">
              <Button
                type="submit"
                loading={run.isPending}
                leftSection={<IconPlayerPlay size={16} aria-hidden="true" />}
              >
                Run
              </Button>
              <Button variant="default" onClick={formatBody} disabled={!form.getValues().body.trim()}>
                Format JSON
              </Button>
            </Group>
          </Stack>
        </form>
      </SectionCard>
      {current && <CallAnswer entry={current} />}
      {history.length > 0 && <CallHistory entries={history} shown={shown} onShow={showEntry} />}
    </Stack>
  );
}
