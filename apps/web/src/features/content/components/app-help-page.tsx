import { Stack } from '@mantine/core';
import { PageHeader } from '@/components/page-header';
import { HelpTopics } from './help-topics';

/** /app/help (any signed-in person): the help topics and the terms, privacy notice and imprint. */
export function AppHelpPage() {
  return (
    <Stack gap="lg" maw={760}>
      <PageHeader title="Help" description="Guides to the portal, and the terms it runs under." />
      <HelpTopics />
    </Stack>
  );
}
