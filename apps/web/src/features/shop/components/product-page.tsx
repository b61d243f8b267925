import { formatMoney, MAX_LINE_QUANTITY, type Product } from '@latchkey/shared';
import { Alert, Button, Grid, Group, NumberInput, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconShoppingCartPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { BackLink } from '@/components/back-link';
import { MissingRecord } from '@/components/missing-record';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useCart } from '@/lib/use-cart';
import { useProduct } from '../api/get-products';
import { Availability } from './availability';
import { ProductImage } from './product-image';

/** Why a quantity cannot be added: too few, or more than there is (or than one order may hold). */
function quantityProblem(wanted: number, room: number, product: Product, inCart: number): string {
  if (!(wanted >= 1)) return 'At least 1';
  const reason =
    product.available <= MAX_LINE_QUANTITY
      ? `${product.available} available`
      : `${MAX_LINE_QUANTITY} per order`;
  return inCart > 0
    ? `At most ${room} more (${reason}, ${inCart} in your cart)`
    : `At most ${room} (${reason})`;
}

function ProductDetails({ product, cartPath }: { product: Product; cartPath: string }) {
  const { cart, add } = useCart();
  const inCart = cart[product._id] ?? 0;
  const room = Math.max(0, Math.min(product.available, MAX_LINE_QUANTITY) - inCart);
  const [quantity, setQuantity] = useState<number | string>(1);
  const [added, setAdded] = useState(false);
  const wanted = typeof quantity === 'number' ? quantity : Number(quantity);
  const valid = Number.isInteger(wanted) && wanted >= 1 && wanted <= room;

  const addToCart = () => {
    if (!valid) return;
    add(product._id, wanted);
    setAdded(true);
    setQuantity(1);
    notifications.show({ color: 'teal', title: 'Added to the cart', message: `${wanted} × ${product.name}` });
  };

  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
          <ProductImage src={product.image} name={product.name} radius="0" />
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <Stack gap="md">
          <Title order={1} fz={{ base: 24, sm: 30 }}>
            {product.name}
          </Title>
          <Group gap="sm">
            <Text fz={24} fw={700}>
              {formatMoney(product.price, product.currency)}
            </Text>
            <Availability available={product.available} />
          </Group>
          <Text c="dimmed" size="sm">
            {product.sku}
            {product.packSize > 1 ? ` · ${product.packSize} in a pack` : ''} · VAT included
          </Text>
          <Text>{product.description}</Text>
          {product.preRegisters && (
            <Text size="sm" c="dimmed">
              Bought while signed in as a portal admin, this lock arrives already in your portal.
            </Text>
          )}
          {room > 0 ? (
            <Group align="flex-end" gap="sm">
              <NumberInput
                label="Quantity"
                value={quantity}
                onChange={(value) => {
                  setQuantity(value);
                  setAdded(false);
                }}
                min={1}
                max={room}
                allowDecimal={false}
                allowNegative={false}
                // What was typed stays until the field is left, with why it is too many; leaving it
                // takes the most one can add ("strict" dropped a keystroke past the maximum, so
                // typing 15 left 1 with no word why).
                clampBehavior="blur"
                w={200}
                error={quantity !== '' && !valid ? quantityProblem(wanted, room, product, inCart) : undefined}
              />
              <Button
                leftSection={<IconShoppingCartPlus size={18} aria-hidden="true" />}
                onClick={addToCart}
                disabled={!valid}
              >
                Add to cart
              </Button>
            </Group>
          ) : (
            <Alert color="gray" variant="light">
              {product.available <= 0
                ? 'Sold out for now.'
                : `Your cart already holds all ${Math.min(product.available, MAX_LINE_QUANTITY)} you can buy at once.`}
            </Alert>
          )}
          {added && (
            <Alert color="teal" variant="light" icon={<IconCheck aria-hidden="true" />} role="status">
              <Group justify="space-between" gap="xs">
                <Text size="sm">
                  In your cart: {inCart} × {product.name}
                </Text>
                <Button component={Link} to={cartPath} size="xs" variant="white" color="teal">
                  Go to the cart
                </Button>
              </Group>
            </Alert>
          )}
        </Stack>
      </Grid.Col>
    </Grid>
  );
}

function ProductScreen({ backTo, backLabel }: { backTo: string; backLabel: string }) {
  const { productId = '' } = useParams();
  const { data, error, isPending, refetch } = useProduct(productId);
  return (
    <Stack gap="lg">
      <BackLink to={backTo} label={backLabel} />
      {isPending ? (
        <Grid gap="xl" role="status" aria-label="Loading the product">
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <Skeleton height={300} radius="lg" />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <Skeleton height={36} mb="md" />
            <Skeleton height={120} />
          </Grid.Col>
        </Grid>
      ) : error ? (
        isApiError(error) && error.status === 404 ? (
          <MissingRecord what="This product" backTo={backTo} backLabel={backLabel} />
        ) : (
          <QueryError title="Could not load the product" error={error} onRetry={() => void refetch()} />
        )
      ) : (
        <ProductDetails product={data} cartPath={paths.shop.cart.href()} />
      )}
    </Stack>
  );
}

/** /product/:productId (anyone). */
export function ProductPage() {
  return <ProductScreen backTo={paths.shop.products.href()} backLabel="All products" />;
}

/** /app/product/:productId (signed in). */
export function AppProductPage() {
  return <ProductScreen backTo={paths.app.products.href()} backLabel="Shop" />;
}
