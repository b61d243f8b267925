import type { CompanyCode } from '@latchkey/shared';
import {
  ActionIcon,
  Button,
  Code,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBuildingSkyscraper, IconEye, IconEyeOff, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmptyList } from '@/components/empty-list';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { TableSkeleton } from '@/components/table-skeleton';
import { ValidityBadge } from '@/components/validity-badge';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { formatDateTime, formatValidity } from '@/lib/format';
import { useDeleteCompanyCode } from '../api/delete-company-code';
import { useCompanyCodes } from '../api/get-company-codes';
import { useCompanyCodeClock } from './company-code-clock';

const NO_WRAP = { whiteSpace: 'nowrap' } as const;

/** The code as dots until revealed, with the eye button that shows or hides it. */
function MaskedCode({ code, name }: { code: CompanyCode['code']; name: string }) {
  const [revealed, setRevealed] = useState(false);
  return (
    <Group gap={4} wrap="nowrap">
      <Code fz="sm" aria-label={revealed ? `Code of ${name}` : `Code of ${name}, hidden`}>
        {revealed ? code : '•'.repeat(code.length)}
      </Code>
      <Tooltip label={revealed ? 'Hide' : 'Show'}>
        <ActionIcon
          variant="subtle"
          onClick={() => setRevealed((shown) => !shown)}
          aria-label={revealed ? `Hide the code of ${name}` : `Show the code of ${name}`}
          aria-pressed={revealed}
        >
          {revealed ? <IconEyeOff size={16} aria-hidden="true" /> : <IconEye size={16} aria-hidden="true" />}
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

function When({ iso, empty, timeZone }: { iso: string | null; empty: string; timeZone: string }) {
  if (!iso) {
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  }
  return (
    <Text size="sm" component="time" dateTime={iso}>
      {formatDateTime(iso, timeZone, { zone: true })}
    </Text>
  );
}

function CodeRow({
  code,
  timeZone,
  onDelete,
}: {
  code: CompanyCode;
  timeZone: string;
  onDelete: () => void;
}) {
  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {code.name}
        </Text>
        {/* On phones the window and the state ride along under the name. */}
        <Stack gap={4} mt={4} hiddenFrom="sm" align="flex-start">
          <Text size="xs" c="dimmed">
            Valid: {formatValidity(code.validFrom, code.validUntil, timeZone, { zone: true })}
          </Text>
          <ValidityBadge validFrom={code.validFrom} validUntil={code.validUntil} size="sm" />
        </Stack>
      </Table.Td>
      <Table.Td>
        <MaskedCode code={code.code} name={code.name} />
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <When iso={code.validFrom} empty="Now" timeZone={timeZone} />
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <When iso={code.validUntil} empty="No end" timeZone={timeZone} />
      </Table.Td>
      <Table.Td visibleFrom="sm" style={NO_WRAP}>
        <ValidityBadge validFrom={code.validFrom} validUntil={code.validUntil} />
      </Table.Td>
      <Table.Td w={52}>
        <Tooltip label="Delete">
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            onClick={onDelete}
            aria-label={`Delete ${code.name}`}
          >
            <IconTrash size={18} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Table.Td>
    </Table.Tr>
  );
}

/** /app/access-codes (admin): the portal's company codes; add one, reveal one, delete one. */
export function CompanyCodesPage() {
  const codes = useCompanyCodes();
  const remove = useDeleteCompanyCode();
  const [deleting, setDeleting] = useState<CompanyCode | null>(null);
  const clock = useCompanyCodeClock();

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting._id);
      notifications.show({
        color: 'teal',
        title: 'Company code deleted',
        message: `${deleting.name} no longer opens any lock.`,
      });
      setDeleting(null);
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Could not delete the company code',
        message: errorMessage(error),
      });
    }
  };

  const newButton = (
    <Button
      component={Link}
      to={paths.app.companyCodeNew.href()}
      leftSection={<IconPlus size={18} aria-hidden="true" />}
    >
      New company code
    </Button>
  );

  let body;
  if (codes.isPending) body = <TableSkeleton label="Loading company codes" />;
  else if (codes.error) {
    body = (
      <QueryError
        title="Could not load the company codes"
        error={codes.error}
        onRetry={() => void codes.refetch()}
      />
    );
  } else if (codes.data.length === 0) {
    body = (
      <EmptyList
        invite
        icon={<IconBuildingSkyscraper size={28} aria-hidden="true" />}
        title="No company codes yet"
        description="Give the cleaning crew or a delivery service one code for every keypad lock, without adding each of them as a person."
        action={newButton}
      />
    );
  } else {
    body = (
      <>
        <Table.ScrollContainer minWidth={300}>
          <Table verticalSpacing="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Code</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">
                  Valid from
                </Table.Th>
                <Table.Th scope="col" visibleFrom="sm">
                  Valid until
                </Table.Th>
                <Table.Th scope="col" visibleFrom="sm">
                  State
                </Table.Th>
                <Table.Th scope="col" w={52}>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {codes.data.map((code) => (
                <CodeRow
                  key={code._id}
                  code={code}
                  timeZone={clock.timeZone}
                  onDelete={() => setDeleting(code)}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Text size="xs" c="dimmed" mt="sm">
          Times on {clock.says}.{clock.note && ` ${clock.note}`}
        </Text>
      </>
    );
  }

  return (
    <Stack gap="lg">
      <PageHeader
        title="Company codes"
        description="A company code is one PIN for the whole portal: it opens every keypad lock, e.g. for the cleaning crew."
        aside={newButton}
      />
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
        {body}
      </Paper>
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={`Delete ${deleting?.name ?? 'the company code'}?`}
        confirmLabel="Delete code"
        loading={remove.isPending}
        onConfirm={() => void confirmDelete()}
      >
        The code stops opening the portal&apos;s keypad locks at once. To use it again, add it again.
      </ConfirmDialog>
    </Stack>
  );
}
