import type { About } from '@latchkey/shared';
import { Anchor, Group, Paper, SimpleGrid, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconApi, IconExternalLink, IconFileCode } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { api } from '@/lib/api-client';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useAbout } from '../api/get-about';

const DATABASES: Record<About['database'], string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" fw={700} tt="uppercase" c="dimmed" style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      <Text component="dd" size="sm" m={0} mt={2} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

function ExternalLink({ href, icon, children }: { href: string; icon: ReactNode; children: ReactNode }) {
  return (
    <Anchor href={href} target="_blank" rel="noreferrer" size="sm">
      <Group gap={6} wrap="nowrap" component="span">
        {icon}
        {children}
        <IconExternalLink size={14} aria-hidden="true" />
        <VisuallyHidden>(opens in a new tab)</VisuallyHidden>
      </Group>
    </Anchor>
  );
}

function Installation() {
  const { data, error, isPending, refetch } = useAbout();
  if (isPending) {
    return (
      <Stack gap="sm" role="status" aria-label="Loading the installation details">
        <Skeleton height={40} radius="sm" />
        <Skeleton height={40} radius="sm" />
        <Skeleton height={40} radius="sm" />
      </Stack>
    );
  }
  if (error) {
    return (
      <QueryError
        title="Could not load the installation details"
        error={error}
        onRetry={() => void refetch()}
      />
    );
  }
  const openApi = `${api.baseUrl.replace(/\/+$/, '')}/openapi.json`;
  return (
    <Stack gap="lg">
      <SimpleGrid component="dl" cols={{ base: 1, xs: 2, md: 3 }} spacing="lg" verticalSpacing="md" m={0}>
        <Fact label="Product">{data.name}</Fact>
        <Fact label="Version">{data.version}</Fact>
        <Fact label="Licence">{data.licence}</Fact>
        <Fact label="Database">{DATABASES[data.database]}</Fact>
        <Fact label="Node.js">{data.node}</Fact>
        <Fact label="Locks connect to">{data.lockBrokerUrl ?? 'Not set (MQTT_PUBLIC_URL)'}</Fact>
        <Fact label="Running since">
          <time dateTime={data.startedAt} title={formatRelative(data.startedAt)}>
            {formatDateTime(data.startedAt)}
          </time>{' '}
          <Text span size="sm" c="dimmed">
            ({formatRelative(data.startedAt)})
          </Text>
        </Fact>
      </SimpleGrid>
      <Group gap="lg" wrap="wrap">
        <ExternalLink href={data.apiDocs} icon={<IconApi size={18} aria-hidden="true" />}>
          API documentation
        </ExternalLink>
        <ExternalLink href={openApi} icon={<IconFileCode size={18} aria-hidden="true" />}>
          OpenAPI description (JSON)
        </ExternalLink>
      </Group>
    </Stack>
  );
}

/** /app/about (admin): what Latchkey is, and what this installation runs. */
export function AboutPage() {
  return (
    <Stack gap="lg">
      <PageHeader title="About Latchkey" description="The software behind this portal." />
      <Paper
        withBorder
        radius="lg"
        p={{ base: 'md', sm: 'lg' }}
        component="section"
        aria-label="What Latchkey is"
      >
        <Stack gap="sm" maw={720}>
          <Text size="sm">
            Latchkey is an open-source portal for smart locks and shared access. A portal holds its locks and
            the people who may open them: directly or through groups, on weekly schedules in each lock&apos;s
            own time zone, with access codes, cards, fingerprints, keys and guest codes.
          </Text>
          <Text size="sm">
            Locks connect to the portal and receive the codes they should accept; they report back what
            happens at the door. Every change an admin makes is recorded in the change log.
          </Text>
        </Stack>
      </Paper>
      <SectionCard title="This installation">
        <Installation />
      </SectionCard>
    </Stack>
  );
}
