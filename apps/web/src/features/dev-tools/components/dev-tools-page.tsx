import { Anchor, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconApi,
  IconCreditCard,
  IconFileDescription,
  IconHeartbeat,
  IconMail,
  type Icon,
} from '@tabler/icons-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { API_BASE_PATH } from '@latchkey/shared';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';

interface Tool {
  title: string;
  description: string;
  icon: Icon;
  /** An address of the app, or (external) one the server serves outside it. */
  to: string;
  external?: boolean;
}

const TOOLS: Tool[] = [
  {
    title: 'API console',
    description:
      'Run any API call as yourself (method, path, JSON body, portal) and read its status, headers, timing and answer. Every call is audited.',
    icon: IconApi,
    to: paths.app.devToolsApi.href(),
  },
  {
    title: 'Dev mailbox',
    description: 'Every message the server wrote, sent or not: read it and follow its links.',
    icon: IconMail,
    to: paths.app.devMailbox.href(),
  },
  {
    title: 'Payments',
    description: 'Payment alerts, orders and stock, across every portal.',
    icon: IconCreditCard,
    to: paths.app.staffPayments.href(),
  },
  {
    title: 'API test page',
    description:
      'Checks the API from a browser: reachability, the version header, sealed requests, the clock. Anyone can open it.',
    icon: IconHeartbeat,
    to: paths.testApi.href(),
  },
  {
    title: 'API reference',
    description: 'The OpenAPI description of every route, with its schemas, served by this server.',
    icon: IconFileDescription,
    to: `${API_BASE_PATH}/docs`,
    external: true,
  },
];

function ToolCard({ tool }: { tool: Tool }) {
  const titleId = useId();
  const ToolIcon = tool.icon;
  const link = tool.external ? (
    <Anchor href={tool.to} fw={600}>
      {tool.title}
    </Anchor>
  ) : (
    <Anchor component={Link} to={tool.to} fw={600}>
      {tool.title}
    </Anchor>
  );
  return (
    <Paper
      withBorder
      radius="lg"
      p="lg"
      component="li"
      aria-labelledby={titleId}
      style={{ listStyle: 'none' }}
    >
      <Group gap="sm" align="flex-start" wrap="nowrap">
        <ThemeIcon variant="light" size={40} radius="md" aria-hidden="true">
          <ToolIcon size={22} />
        </ThemeIcon>
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Title order={2} fz="md" id={titleId}>
            {link}
          </Title>
          <Text size="sm" c="dimmed">
            {tool.description}
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}

/** /app/devTools (platform staff): the developer tools, each a link to its screen. */
export function DevToolsPage() {
  return (
    <Stack gap="lg">
      <PageHeader title="Developer tools" description="For platform staff: look into what the server does." />
      <SimpleGrid component="ul" cols={{ base: 1, sm: 2, xl: 3 }} spacing="md" p={0} m={0}>
        {TOOLS.map((tool) => (
          <ToolCard key={tool.title} tool={tool} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
