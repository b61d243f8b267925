import { formatDate, type ContentPage } from '@latchkey/shared';
import { Alert, Badge, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconEdit, IconPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { MissingRecord } from '@/components/missing-record';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { isSignedIn } from '@/lib/auth-token';
import { useContentPage } from '../api/get-content-page';
import { useInfoPage } from '../api/get-info-page';
import { useCmsMode } from '../lib/cms-mode';
import { MarkdownContent } from './markdown-content';
import { PageEditor } from './page-editor';

function PageSkeleton() {
  return (
    <Stack gap="sm" aria-busy="true" aria-label="Loading the page">
      <Skeleton h={34} w="60%" />
      <Skeleton h={16} />
      <Skeleton h={16} />
      <Skeleton h={16} w="80%" />
    </Stack>
  );
}

const backTo = () => (isSignedIn() ? paths.auth.landing.href() : paths.root.href());

/**
 * /info/{topic} (blank layout): a content page (terms, privacy, imprint, help topics). Visitors
 * read the published page; platform staff with CMS mode on see drafts too and edit in place.
 */
export function InfoPage() {
  const topic = useParams().topic ?? '';
  const cms = useCmsMode();
  return cms.enabled ? <EditableInfoPage topic={topic} /> : <PublishedInfoPage topic={topic} />;
}

function PublishedInfoPage({ topic }: { topic: string }) {
  const page = useInfoPage(topic);
  const title = page.data?.title;
  useEffect(() => {
    // The route's title is generic ("Information"); the page's own title is more use in a tab.
    if (title) document.title = `${title} · Latchkey`;
  }, [title]);
  if (page.isPending) return <PageSkeleton />;
  if (page.error) {
    if (isApiError(page.error) && (page.error.status === 404 || page.error.status === 400))
      return <MissingRecord what="This page" backTo={backTo()} backLabel="Back" />;
    return <QueryError error={page.error} onRetry={() => void page.refetch()} />;
  }
  return (
    <Stack gap="md" component="article">
      <MarkdownContent markdown={page.data.body} />
      <Text size="xs" c="dimmed">
        Last updated {formatDate(page.data.updatedAt)}
      </Text>
    </Stack>
  );
}

function EditableInfoPage({ topic }: { topic: string }) {
  const page = useContentPage(topic);
  const [editing, setEditing] = useState(false);
  const missing = isApiError(page.error) && page.error.status === 404;
  if (page.isPending) return <PageSkeleton />;
  if (page.error && !missing) return <QueryError error={page.error} onRetry={() => void page.refetch()} />;
  const current: ContentPage | null = page.data ?? null;

  return (
    <Stack gap="md">
      <Alert variant="light" color="latchkey" title="CMS mode">
        <Group justify="space-between" gap="sm">
          <Text size="sm">
            {current
              ? `Version ${current.version}${current.updatedBy ? ` by ${current.updatedBy}` : ''}, ${formatDate(current.updatedAt)}`
              : `No page at /info/${topic} yet.`}
          </Text>
          {current && !current.published && <Badge color="gray">Draft: visitors get a not-found page</Badge>}
          {!editing && (
            <Button
              size="xs"
              leftSection={
                current ? (
                  <IconEdit size={14} aria-hidden="true" />
                ) : (
                  <IconPlus size={14} aria-hidden="true" />
                )
              }
              onClick={() => setEditing(true)}
            >
              {current ? 'Edit' : 'Create this page'}
            </Button>
          )}
        </Group>
      </Alert>
      {editing ? (
        <PageEditor topic={topic} page={current} onClose={() => setEditing(false)} />
      ) : (
        current && (
          <article>
            <MarkdownContent markdown={current.body} />
          </article>
        )
      )}
    </Stack>
  );
}
