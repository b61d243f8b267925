import { Container, Text } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { Logo, LogoMark } from '@/components/logo';
import classes from './public-layout.module.css';
import { paths } from '@/config/paths';

/**
 * Screens reached from a mail link or between sign-in and the app (/verify, /must-activate,
 * /reset/:resetToken, /invite, /space/:portalId): the logo, one centred column, no navigation.
 */
export function BlankLayout() {
  return (
    <div className={classes.formSide}>
      <header className={classes.header}>
        <Link to={paths.root.href()} className={classes.homeLink} aria-label="Latchkey home">
          <Logo size={30} />
        </Link>
      </header>
      <Container size={480} w="100%" component="main" id="main" className={classes.main}>
        <Outlet />
      </Container>
      <footer className={classes.footer}>
        <LogoMark size={16} />
        <Text size="xs" c="dimmed">
          Latchkey · open-source access management
        </Text>
      </footer>
    </div>
  );
}
