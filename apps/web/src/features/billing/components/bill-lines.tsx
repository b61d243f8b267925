import { formatMoney } from '@latchkey/shared';
import type { Bill, BillLine } from '@latchkey/shared';
import { Badge, Button, Collapse, Group, Stack, Table, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useId } from 'react';
import { formatCalendarDate } from '@/lib/format';
import { lineTitle, vatLabel } from './bill-text';

function LineLocks({ line }: { line: BillLine }) {
  const [opened, { toggle }] = useDisclosure(false);
  const id = useId();
  const count = line.locks.length;
  if (count === 0) {
    return (
      <Text size="sm" c="dimmed">
        No locks while this plan was in force.
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      <Button
        variant="subtle"
        size="compact-sm"
        onClick={toggle}
        aria-expanded={opened}
        aria-controls={id}
        rightSection={
          opened ? (
            <IconChevronUp size={14} aria-hidden="true" />
          ) : (
            <IconChevronDown size={14} aria-hidden="true" />
          )
        }
        style={{ alignSelf: 'flex-start' }}
      >
        {opened ? 'Hide' : 'Show'} the {count === 1 ? 'lock' : `${count} locks`} and their days
      </Button>
      <Collapse expanded={opened} id={id}>
        <Table.ScrollContainer minWidth={420}>
          <Table striped withTableBorder verticalSpacing={6} fz="sm">
            <Table.Caption>Each lock counts on every day at whose end it existed.</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Lock</Table.Th>
                <Table.Th scope="col" ta="right">
                  Days
                </Table.Th>
                <Table.Th scope="col">First day</Table.Th>
                <Table.Th scope="col">Last day</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {line.locks.map((lock) => (
                <Table.Tr key={lock.deviceId}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {lock.name}{' '}
                    {lock.deleted && (
                      <Badge size="xs" variant="light" color="gray">
                        Deleted since
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td ta="right">{lock.days}</Table.Td>
                  <Table.Td>{formatCalendarDate(lock.firstDay)}</Table.Td>
                  <Table.Td>{formatCalendarDate(lock.lastDay)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Collapse>
    </Stack>
  );
}

/** A bill's lines, each with how its amount was reached and the locks behind it. */
export function BillLines({ bill }: { bill: Bill }) {
  if (bill.lines.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Nothing on this bill: the portal had no days in this month yet.
      </Text>
    );
  }
  return (
    <Stack gap="lg" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Bill lines">
      {bill.lines.map((line) => (
        <Stack
          key={line.plan}
          gap="xs"
          component="li"
          p="md"
          style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
        >
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
            <Text fw={600} style={{ minWidth: 0 }}>
              {lineTitle(line)}
            </Text>
            <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
              {formatMoney(line.amountMinor, bill.currency)}
            </Text>
          </Group>
          <Text size="sm" c="dimmed">
            {line.explanation}
          </Text>
          <LineLocks line={line} />
        </Stack>
      ))}
    </Stack>
  );
}

/** Net, VAT and total of a bill, with its VAT note. */
export function BillTotals({ bill }: { bill: Bill }) {
  const rows: [string, number, boolean][] = [
    ['Net', bill.netMinor, false],
    [vatLabel(bill), bill.vatMinor, false],
    ['Total', bill.totalMinor, true],
  ];
  return (
    <Stack gap="xs">
      <Table verticalSpacing={4} fz="sm" aria-label="Totals">
        <Table.Tbody>
          {rows.map(([label, amount, strong]) => (
            <Table.Tr key={label}>
              <Table.Th scope="row" fw={strong ? 700 : 500}>
                {label}
              </Table.Th>
              <Table.Td ta="right" fw={strong ? 700 : undefined} fz={strong ? 'md' : undefined}>
                {formatMoney(amount, bill.currency)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed">
        {bill.vat.note}
      </Text>
    </Stack>
  );
}
