import { formatMoney, type Product } from '@latchkey/shared';
import { Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPackage } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyList } from '@/components/empty-list';
import { QueryError } from '@/components/query-error';
import { useProducts } from '../api/get-products';
import { Availability } from './availability';
import { ProductImage } from './product-image';

/** The catalogue as cards; each opens its product at `pathOf(id)`. */
export function ProductGrid({ pathOf }: { pathOf: (productId: string) => string }) {
  const { data, error, isPending, refetch } = useProducts();
  if (isPending) {
    return (
      <SimpleGrid
        cols={{ base: 1, xs: 2, md: 3, lg: 4 }}
        spacing="lg"
        role="status"
        aria-label="Loading the products"
      >
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} height={300} radius="lg" />
        ))}
      </SimpleGrid>
    );
  }
  if (error)
    return <QueryError title="Could not load the products" error={error} onRetry={() => void refetch()} />;
  if (data.length === 0) {
    return (
      <EmptyList
        icon={<IconPackage size={28} aria-hidden="true" />}
        title="Nothing on sale right now"
        description="The shop has no products at the moment. Come back soon."
      />
    );
  }
  return (
    <SimpleGrid
      cols={{ base: 1, xs: 2, md: 3, lg: 4 }}
      spacing="lg"
      component="ul"
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
    >
      {data.map((product) => (
        <li key={product._id}>
          <ProductCard product={product} to={pathOf(product._id)} />
        </li>
      ))}
    </SimpleGrid>
  );
}

function ProductCard({ product, to }: { product: Product; to: string }) {
  return (
    <Card
      withBorder
      radius="lg"
      padding="md"
      h="100%"
      component={Link}
      to={to}
      style={{ textDecoration: 'none' }}
    >
      <Card.Section>
        <ProductImage src={product.image} name="" radius="0" />
      </Card.Section>
      <Stack gap={6} mt="md" style={{ flex: 1 }}>
        <Title order={2} fz="md">
          {product.name}
        </Title>
        <Text size="sm" style={{ flex: 1 }}>
          {product.summary}
        </Text>
        <Group justify="space-between" align="center" mt="xs">
          <Text fw={700}>{formatMoney(product.price, product.currency)}</Text>
          <Availability available={product.available} />
        </Group>
      </Stack>
    </Card>
  );
}
