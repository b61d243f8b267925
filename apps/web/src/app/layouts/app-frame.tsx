import type { Session } from '@latchkey/shared';
import { AppShell, Box, Burger, Container, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { Logo, LogoMark } from '@/components/logo';
import { brandOf } from '@/lib/brand';
import { UnverifiedEmailBanner } from '@/components/unverified-email-banner';
import { usePortalBrand } from '@/features/content/api/get-portal-brand';
import { useNavVisibility } from '@/features/content/api/get-nav-visibility';
import { useSetNavVisibility } from '@/features/content/api/set-nav-visibility';
import { useCmsMode } from '@/features/content/lib/cms-mode';
import { SupportSessionBanner } from '@/features/auth/components/support-session-banner';
import { featureIsOn, useFeatures } from '@/features/platform/api/get-features';
import { SupportActingBanner } from '@/features/platform/components/support-acting-banner';
import { PaymentBanner } from '@/features/plans/components/payment-banner';
import { ActingBanner } from '@/features/portal/components/acting-banner';
import { hasRequiredRole } from '@/lib/authorization';
import type { NavItem } from '../route-handle';
import classes from './app-frame.module.css';
import { AppNav } from './app-nav';
import { UserMenu } from './user-menu';

interface AppFrameProps {
  session: Session;
  navItems: readonly NavItem[];
  homePath: string;
  /** The person's settings (profile, email, password, two-factor sign-in, sessions). */
  settingsPath: string;
  /** Shown in the header before the user menu (the portal switcher). */
  headerExtra?: ReactNode;
  children: ReactNode;
}

/** The signed-in shell: header (burger on phones), navigation filtered by role and portal, main. */
export function AppFrame({
  session,
  navItems: allNavItems,
  homePath,
  settingsPath,
  headerExtra,
  children,
}: AppFrameProps) {
  const [opened, { toggle, close }] = useDisclosure(false);
  // Screens of features switched off (GET system/features) leave the navigation.
  const navItems = withEnabledFeatures(allNavItems, useFeatures().data?.enabled);
  const { pathname } = useLocation();
  // Entries platform staff hid (GET content/nav) are left out, except in CMS mode, where staff see
  // every entry with its hide/show control.
  const cms = useCmsMode();
  const hidden = useNavVisibility().data?.hidden ?? [];
  const setNavVisibility = useSetNavVisibility();
  const brand = usePortalBrand().data?.brand;
  const visible = navItems.filter(
    (item) =>
      hasRequiredRole(session.roles, item.roles) &&
      (!item.requiresPortal || session.portal !== null) &&
      (cms.enabled || !hidden.includes(item.to)),
  );
  const activeTo = currentEntry(visible, pathname);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 248, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding={{ base: 'sm', sm: 'lg' }}
    >
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px={{ base: 'sm', sm: 'md' }} justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
              aria-controls="app-navigation"
            />
            <Link to={homePath} className={classes.homeLink} aria-label={`${brandOf(brand).name} home`}>
              <Box visibleFrom="xs">
                <Logo size={28} brand={brand} />
              </Box>
              <Box hiddenFrom="xs" display="flex">
                <LogoMark size={28} />
              </Box>
            </Link>
          </Group>
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            {headerExtra}
            <UserMenu session={session} settingsPath={settingsPath} />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" id="app-navigation" aria-label="Main navigation">
        {/* Grouped and compact to fit a laptop screen; it still scrolls on its own on a shorter one. */}
        {/* Native overflow: Mantine's ScrollArea measures itself in layout effects on every render. */}
        <AppShell.Section grow style={{ overflowY: 'auto', minHeight: 0 }}>
          <AppNav
            items={visible}
            activeTo={activeTo}
            onNavigate={close}
            visibility={
              cms.enabled
                ? {
                    hidden,
                    toggle: (to, hide) => setNavVisibility.mutate({ to, hidden: hide }),
                  }
                : undefined
            }
          />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id="main" className={classes.main}>
        <Container size="lg" p={0}>
          {/* The account banners of the signed-in shells, and admins' payment banner. */}
          <SupportSessionBanner session={session} />
          <SupportActingBanner session={session} />
          <ActingBanner />
          <UnverifiedEmailBanner session={session} />
          <PaymentBanner session={session} />
          {children}
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}

/**
 * The address of the entry whose address (or one of its `alsoCurrentOn`) is the longest prefix of
 * the page's: /user/help is Help, not the /user home, while /user/locks/… stays under the home.
 */
export function currentEntry(items: readonly NavItem[], pathname: string): string | null {
  let best: { to: string; length: number } | null = null;
  for (const item of items) {
    for (const address of [item.to, ...(item.alsoCurrentOn ?? [])]) {
      const matches = pathname === address || pathname.startsWith(`${address}/`);
      if (matches && (!best || address.length > best.length)) best = { to: item.to, length: address.length };
    }
  }
  return best?.to ?? null;
}

/** The navigation without the screens of features that are off (all of it while the list loads). */
function withEnabledFeatures(
  items: readonly NavItem[],
  enabled: Parameters<typeof featureIsOn>[0],
): NavItem[] {
  return items.filter((item) => featureIsOn(enabled, item.feature));
}
