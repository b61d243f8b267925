import { Accordion, Group, Paper, Stack, Text } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import { EmptyList, NoMatchList } from '@/components/empty-list';
import { ListPagination } from '@/components/list-pagination';
import { BackLink } from '@/components/back-link';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { QueryError } from '@/components/query-error';
import { ListFilters } from '@/components/list-filters';
import { TableSkeleton } from '@/components/table-skeleton';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useListParams } from '@/lib/use-list-params';
import { useMail } from '../api/get-mail';
import { MailMessage, MailStatusBadge } from './mail-message';

/** The kinds of mail the server writes (the outbox's template names). */
const TEMPLATES = [
  { value: 'verify_email', label: 'Confirm email' },
  { value: 'change_email', label: 'Change email' },
  { value: 'reset_password', label: 'Reset password' },
  { value: 'invitation', label: 'Portal invitation' },
  { value: 'device_invitation', label: 'Guest invitation' },
];
const TEMPLATE_VALUES = new Set(TEMPLATES.map((t) => t.value));
const PAGE_SIZE = 20;

/** /app/devTools/mail (superAdmin): every message the server wrote, sent or not, to read and follow links. */
export function DevMailboxPage() {
  const list = useListParams({ sortFields: ['createdAt'], defaultSort: 'createdAt', pageSize: PAGE_SIZE });
  const template = TEMPLATE_VALUES.has(list.param('kind')) ? list.param('kind') : '';
  const mail = useMail({
    skip: list.query.skip,
    limit: list.query.limit,
    search: list.query.search,
    template: template || undefined,
  });
  const filtered = Boolean(list.search || template);

  let body;
  if (mail.isPending) body = <TableSkeleton label="Loading mail" />;
  else if (mail.error)
    body = (
      <QueryError title="Could not load the mailbox" error={mail.error} onRetry={() => void mail.refetch()} />
    );
  else if (mail.data.total === 0 && !filtered)
    body = (
      <EmptyList
        invite
        icon={<IconInbox size={28} aria-hidden="true" />}
        title="No mail yet"
        description="Mail the server writes (confirmations, password resets, invitations) shows up here."
      />
    );
  else if (mail.data.items.length === 0)
    body = (
      <NoMatchList
        title="No mail matches"
        description="Try another address or subject, or show every kind."
        showAll="Show all mail"
        onShowAll={() => list.setParams({ search: null, kind: null })}
      />
    );
  else
    body = (
      <>
        <Accordion
          variant="separated"
          radius="md"
          chevronPosition="left"
          style={{ opacity: mail.isPlaceholderData ? 0.6 : 1 }}
        >
          {mail.data.items.map((message) => (
            <Accordion.Item key={message._id} value={message._id}>
              <Accordion.Control>
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Text fw={600} size="sm" truncate="end">
                      {message.subject}
                    </Text>
                    <Text size="xs" c="dimmed" truncate="end">
                      {message.to} ·{' '}
                      <time dateTime={message.createdAt} title={formatDateTime(message.createdAt)}>
                        {formatRelative(message.createdAt)}
                      </time>
                    </Text>
                  </Stack>
                  <MailStatusBadge message={message} />
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <MailMessage message={message} />
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
        <ListPagination
          page={list.page}
          pageSize={list.pageSize}
          total={mail.data.total}
          onChange={list.setPage}
          noun={mail.data.total === 1 ? 'message' : 'messages'}
        />
      </>
    );

  return (
    <Stack gap="lg">
      <BackLink to={paths.app.devTools.href()} label="Developer tools" />
      <PageHeader
        title="Dev mailbox"
        description="Every message the server wrote, newest first, whether it was sent or not. Links in the text open in a new tab."
      />
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
        <ListFilters
          list={list}
          searchLabel="Search mail"
          searchPlaceholder="Address or subject"
          filter={{
            param: 'kind',
            label: 'Kind',
            placeholder: 'Every kind',
            data: TEMPLATES,
            value: template || null,
          }}
        />
        {body}
      </Paper>
    </Stack>
  );
}
