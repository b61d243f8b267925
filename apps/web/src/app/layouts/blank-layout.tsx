import { Container, Text } from '@mantine/core';
import { Link, Outlet, useMatches } from 'react-router';
import { LegalLinks } from '@/components/legal-links';
import { Logo, LogoMark } from '@/components/logo';
import { brandOf } from '@/lib/brand';
import classes from './public-layout.module.css';
import { paths } from '@/config/paths';
import { deepestHandle } from '../route-handle';

/**
 * Screens reached from a mail link or between sign-in and the app (/verify, /must-activate,
 * /reset/:resetToken, /invite, /space/:portalId): the logo, one centred column, no navigation.
 */
export function BlankLayout() {
  // Content pages (/info/{topic}) read as documents: a wider column than a form's.
  const wide = deepestHandle(useMatches(), 'wide') ?? false;
  return (
    <div className={classes.formSide}>
      <header className={classes.header}>
        <Link to={paths.root.href()} className={classes.homeLink} aria-label={`${brandOf().name} home`}>
          <Logo size={30} />
        </Link>
      </header>
      <Container size={wide ? 880 : 480} w="100%" component="main" id="main" className={classes.main}>
        <Outlet />
      </Container>
      <footer className={classes.footer}>
        <LogoMark size={16} />
        <Text size="xs" c="dimmed">
          Latchkey · open-source access management
        </Text>
        <LegalLinks />
      </footer>
    </div>
  );
}
