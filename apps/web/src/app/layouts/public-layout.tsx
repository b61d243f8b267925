import { Box, Container, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCalendarTime, IconKey, IconShieldLock } from '@tabler/icons-react';
import { Link, Outlet } from 'react-router';
import { LegalLinks } from '@/components/legal-links';
import { Logo, LogoMark } from '@/components/logo';
import { brandOf } from '@/lib/brand';
import classes from './public-layout.module.css';
import { paths } from '@/config/paths';

const POINTS = [
  { icon: IconKey, text: 'Codes, cards, fingerprints and keys for every lock' },
  { icon: IconCalendarTime, text: 'Schedules in each lock’s own time zone' },
  { icon: IconShieldLock, text: 'Proof of what every lock has accepted' },
];

/** Sign-in, sign-up and the /auth screens: a brand panel beside the form (above it on phones). */
export function PublicLayout() {
  return (
    <div className={classes.root}>
      <Box component="aside" className={classes.brand} aria-label="About Latchkey">
        <Stack gap="xl" maw={420}>
          <Title order={2} className={classes.brandTitle}>
            Smart locks, people and access in one place.
          </Title>
          <Stack gap="md" component="ul" className={classes.points}>
            {POINTS.map(({ icon: Icon, text }) => (
              <li key={text} className={classes.point}>
                <ThemeIcon size={36} radius="md" variant="white" color="latchkey" aria-hidden="true">
                  <Icon size={20} stroke={1.8} />
                </ThemeIcon>
                <Text c="inherit">{text}</Text>
              </li>
            ))}
          </Stack>
        </Stack>
      </Box>
      <div className={classes.formSide}>
        <header className={classes.header}>
          <Link to={paths.root.href()} className={classes.homeLink} aria-label={`${brandOf().name} home`}>
            <Logo size={30} />
          </Link>
        </header>
        <Container size={440} w="100%" component="main" id="main" className={classes.main}>
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
    </div>
  );
}
