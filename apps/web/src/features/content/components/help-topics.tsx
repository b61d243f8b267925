import { Anchor, Button, List, Skeleton, Stack, Text } from '@mantine/core';
import { IconLifebuoy } from '@tabler/icons-react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { useInfoIndex } from '../api/get-info-index';

/** The published help topics and the legal pages, as links to /info/{topic}, and the way to support. */
export function HelpTopics() {
  const index = useInfoIndex();
  if (index.isPending) return <Skeleton h={160} radius="md" aria-label="Loading the help topics" />;
  if (index.error) return <QueryError error={index.error} onRetry={() => void index.refetch()} />;
  const help = index.data.pages.filter((page) => page.section === 'help');
  const legal = index.data.pages.filter((page) => page.section === 'legal');
  return (
    <Stack gap="lg">
      <SectionCard title="Help topics">
        {help.length === 0 ? (
          <Text size="sm" c="dimmed">
            No help topics are published yet.
          </Text>
        ) : (
          <List spacing="xs" size="sm">
            {help.map((page) => (
              <List.Item key={page.topic}>
                <Anchor component={Link} to={paths.info.href(page.topic)}>
                  {page.title}
                </Anchor>
              </List.Item>
            ))}
          </List>
        )}
      </SectionCard>
      <SectionCard
        title="Still stuck?"
        description="Tell us what happened; we answer in the app and by mail."
      >
        <Button
          component={Link}
          to={paths.app.support.href()}
          variant="light"
          leftSection={<IconLifebuoy size={16} aria-hidden="true" />}
          w="fit-content"
        >
          Ask for support
        </Button>
      </SectionCard>
      {legal.length > 0 && (
        <SectionCard title="Terms and policies">
          <List spacing="xs" size="sm">
            {legal.map((page) => (
              <List.Item key={page.topic}>
                <Anchor component={Link} to={paths.info.href(page.topic)}>
                  {page.title}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </SectionCard>
      )}
    </Stack>
  );
}
