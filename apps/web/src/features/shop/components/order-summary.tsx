import { formatMoney, type Quote } from '@latchkey/shared';
import { Divider, Group, Stack, Text } from '@mantine/core';

/** The lines and totals of a quote, as the server priced them. */
export function OrderSummary({ quote, shippingName }: { quote: Quote; shippingName?: string }) {
  const money = (minor: number) => formatMoney(minor, quote.currency);
  return (
    <Stack gap="xs">
      <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Items">
        {quote.lines.map((line) => (
          <Group key={line.productId} component="li" justify="space-between" wrap="nowrap" gap="sm">
            <Text size="sm" style={{ minWidth: 0 }}>
              {line.quantity} × {line.name}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
              {money(line.lineTotal)}
            </Text>
          </Group>
        ))}
      </Stack>
      <Divider />
      <Group justify="space-between">
        <Text size="sm">Subtotal</Text>
        <Text size="sm">{money(quote.subtotal)}</Text>
      </Group>
      {quote.shipping !== null && (
        <Group justify="space-between">
          <Text size="sm">{shippingName ?? 'Shipping'}</Text>
          <Text size="sm">{quote.shipping === 0 ? 'Free' : money(quote.shipping)}</Text>
        </Group>
      )}
      <Group justify="space-between">
        <Text fw={700}>Total</Text>
        <Text fw={700} data-testid="order-total">
          {money(quote.total)}
        </Text>
      </Group>
      <Text size="xs" c="dimmed">
        Prices include VAT.
      </Text>
    </Stack>
  );
}
