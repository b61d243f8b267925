import {
  contentPageInputSchema,
  formatDateTime,
  type ContentPage,
  type ContentPageInput,
} from '@latchkey/shared';
import {
  Badge,
  Button,
  Group,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconDeviceFloppy, IconRestore } from '@tabler/icons-react';
import { formResolver, useFormMutation } from '@/lib/forms';
import { errorMessage } from '@/lib/errors';
import { useContentVersions } from '../api/get-content-versions';
import { useRestoreContentVersion } from '../api/restore-content-version';
import { useSaveContentPage } from '../api/save-content-page';
import classes from './content.module.css';
import { MarkdownContent } from './markdown-content';

const LABELS = { title: 'Title', section: 'Listed under', body: 'Markdown', published: 'Published' };

interface PageEditorProps {
  topic: string;
  /** The page as it is now; null for a topic that has no page yet. */
  page: ContentPage | null;
  onClose: () => void;
}

/**
 * CMS mode's editor, in place on /info/{topic}: the Markdown beside its live preview (the same
 * renderer visitors get), Save (a new version), and the version history with restore.
 */
export function PageEditor({ topic, page, onClose }: PageEditorProps) {
  const form = useForm<ContentPageInput>({
    initialValues: {
      title: page?.title ?? '',
      section: page?.section ?? 'help',
      body: page?.body ?? '',
      published: page?.published ?? false,
    },
    validate: formResolver(contentPageInputSchema, LABELS),
  });
  const save = useSaveContentPage(topic);
  const { submit } = useFormMutation(form, {
    labels: LABELS,
    otherwise: 'The page was not saved',
    run: async (values) => {
      const saved = await save.mutateAsync(values);
      notifications.show({ color: 'teal', message: `Saved as version ${saved.version}` });
      onClose();
    },
  });

  return (
    <Stack gap="lg">
      <form onSubmit={submit} noValidate aria-label="Edit page">
        <Stack gap="md">
          <Group justify="space-between" align="flex-end" wrap="wrap">
            <TextInput label={LABELS.title} required maw={420} w="100%" {...form.getInputProps('title')} />
            <Stack gap={4}>
              <Text size="sm" fw={500} id="content-section-label">
                {LABELS.section}
              </Text>
              <SegmentedControl
                aria-labelledby="content-section-label"
                data={[
                  { value: 'legal', label: 'Legal' },
                  { value: 'help', label: 'Help' },
                ]}
                {...form.getInputProps('section')}
              />
            </Stack>
            <Switch
              label="Published (anyone may read it)"
              {...form.getInputProps('published', { type: 'checkbox' })}
            />
          </Group>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <Textarea
              label={LABELS.body}
              description="Headings (#), lists (-), **bold**, [links](/info/terms). HTML is cleaned."
              autosize
              minRows={14}
              maxRows={28}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              {...form.getInputProps('body')}
            />
            <Stack gap={4}>
              <Text size="sm" fw={500} id="content-preview-label">
                Preview
              </Text>
              <section aria-labelledby="content-preview-label" className={classes.preview}>
                <MarkdownContent markdown={form.values.body} />
              </section>
            </Stack>
          </SimpleGrid>
          <Group gap="sm">
            <Button
              type="submit"
              loading={save.isPending}
              leftSection={<IconDeviceFloppy size={16} aria-hidden="true" />}
            >
              Save
            </Button>
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
      {page && <VersionHistory topic={topic} current={page.version} onRestored={onClose} />}
    </Stack>
  );
}

interface VersionHistoryProps {
  topic: string;
  current: number;
  onRestored: () => void;
}

/** Every saved version: who saved it and when; any earlier one can be restored (as a new version). */
function VersionHistory({ topic, current, onRestored }: VersionHistoryProps) {
  const versions = useContentVersions(topic);
  const restore = useRestoreContentVersion(topic);
  const restoreVersion = (version: number) =>
    restore.mutate(version, {
      onSuccess: (page) => {
        notifications.show({
          color: 'teal',
          message: `Version ${version} restored as version ${page.version}`,
        });
        onRestored();
      },
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Not restored', message: errorMessage(error) }),
    });

  return (
    <Stack gap="xs" component="section" aria-labelledby="content-history">
      <Title order={2} fz="lg" id="content-history">
        Version history
      </Title>
      {versions.isPending && <Text c="dimmed">Loading the versions…</Text>}
      {versions.error && <Text c="red">{errorMessage(versions.error)}</Text>}
      {versions.data && (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Version</Table.Th>
                <Table.Th>Saved</Table.Th>
                <Table.Th>By</Table.Th>
                <Table.Th>Title</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {versions.data.versions.map((version) => (
                <Table.Tr key={version.version}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Text size="sm">{version.version}</Text>
                      {version.version === current && <Badge variant="light">Current</Badge>}
                      {!version.published && (
                        <Badge variant="outline" color="gray">
                          Draft
                        </Badge>
                      )}
                    </Group>
                    {version.restoredFrom !== null && (
                      <Text size="xs" c="dimmed">
                        Restored from {version.restoredFrom}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDateTime(version.savedAt)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{version.savedBy ?? 'Installation default'}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{version.title}</Text>
                  </Table.Td>
                  <Table.Td>
                    {version.version !== current && (
                      <Button
                        size="xs"
                        variant="light"
                        leftSection={<IconRestore size={14} aria-hidden="true" />}
                        loading={restore.isPending && restore.variables === version.version}
                        onClick={() => restoreVersion(version.version)}
                        aria-label={`Restore version ${version.version}`}
                      >
                        Restore
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
