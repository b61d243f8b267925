import { Badge, Box, Button, Container, Group, Text } from '@mantine/core';
import { IconShoppingCart } from '@tabler/icons-react';
import { Link, Outlet } from 'react-router';
import { LegalLinks } from '@/components/legal-links';
import { Logo, LogoMark } from '@/components/logo';
import { brandOf } from '@/lib/brand';
import { paths } from '@/config/paths';
import { isSignedIn } from '@/lib/auth-token';
import { useCart } from '@/lib/use-cart';
import classes from './shop-layout.module.css';

/**
 * The shop and checkout (public: product, cart, address, pickShipping, success, canceled, goto-app):
 * the logo, the shop, the cart with its count and the way into the app; one column below.
 */
export function ShopLayout() {
  const { count } = useCart();
  const signedIn = isSignedIn();
  return (
    <div className={classes.root}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className={classes.header}>
        <Container size="lg" py="sm">
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Link
              to={paths.shop.products.href()}
              className={classes.homeLink}
              aria-label={`${brandOf().name} shop`}
            >
              <Box visibleFrom="xs">
                <Logo size={28} />
              </Box>
              <Box hiddenFrom="xs" display="flex">
                <LogoMark size={28} />
              </Box>
            </Link>
            <Group gap="xs" wrap="nowrap" component="nav" aria-label="Shop">
              <Button component={Link} to={paths.shop.products.href()} variant="subtle" size="sm" px="xs">
                Shop
              </Button>
              <Button
                component={Link}
                to={paths.shop.cart.href()}
                variant="light"
                size="sm"
                px="xs"
                leftSection={<IconShoppingCart size={18} aria-hidden="true" />}
                rightSection={
                  count > 0 ? (
                    <Badge size="sm" circle={count < 10} aria-hidden="true">
                      {count}
                    </Badge>
                  ) : undefined
                }
                aria-label={count > 0 ? `Cart, ${count} item${count === 1 ? '' : 's'}` : 'Cart, empty'}
              >
                Cart
              </Button>
              <Button
                component={Link}
                to={signedIn ? paths.auth.landing.href() : paths.root.href()}
                variant="subtle"
                size="sm"
                px="xs"
                visibleFrom="xs"
              >
                {signedIn ? 'Open the app' : 'Sign in'}
              </Button>
            </Group>
          </Group>
        </Container>
      </header>
      <Container size="lg" w="100%" component="main" id="main" className={classes.main}>
        <Outlet />
      </Container>
      <footer className={classes.footer}>
        <LogoMark size={16} />
        <Text size="xs" c="dimmed">
          Latchkey · hardware for your portal · prices include VAT
        </Text>
        <LegalLinks />
      </footer>
    </div>
  );
}
