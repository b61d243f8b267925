import { Button, Group, Stack } from '@mantine/core';
import { IconReceipt, IconShoppingCart } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { useCart } from '@/lib/use-cart';
import { ProductGrid } from './product-grid';

/** /product (anyone): the hardware shop. */
export function ProductListPage() {
  return (
    <Stack gap="lg">
      <PageHeader
        title="Hardware for your portal"
        description="Smart locks, keypads, cards and readers that work with Latchkey. Prices include VAT."
      />
      <ProductGrid pathOf={(id) => paths.shop.product.href(id)} />
    </Stack>
  );
}

/** /app/products (signed in): the shop inside the app; locks bought here arrive in the portal. */
export function AppProductsPage() {
  const { count } = useCart();
  return (
    <Stack gap="lg">
      <PageHeader
        title="Shop"
        description="Locks an admin buys here arrive in this portal already registered, marked “not yet connected” until they are installed."
        aside={
          <Group gap="xs">
            <Button
              component={Link}
              to={paths.app.orders.href()}
              variant="default"
              leftSection={<IconReceipt size={18} aria-hidden="true" />}
            >
              Your orders
            </Button>
            <Button
              component={Link}
              to={paths.shop.cart.href()}
              leftSection={<IconShoppingCart size={18} aria-hidden="true" />}
            >
              {count > 0 ? `Cart (${count})` : 'Cart'}
            </Button>
          </Group>
        }
      />
      <ProductGrid pathOf={(id) => paths.app.product.href(id)} />
    </Stack>
  );
}
