import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { SectionCard } from '@/components/section-card';
import { RecordPage } from '@/components/record-page';
import { paths } from '@/config/paths';
import { formatDateTime } from '@/lib/format';
import { useSession } from '@/lib/session';
import { useSupportImage } from '../api/get-support-image';
import { useSupportRequest } from '../api/get-support-request';
import { useReplySupportRequest } from '../api/reply-support-request';
import { SupportImages } from './support-images';
import { STATUS_TEXT, typeLabel } from './support-text';
import { ReplyForm, SupportThread } from './support-thread';

/** /app/support/request/:requestId: a request, its pictures and its thread, with a reply box. */
export function SupportRequestPage() {
  const { requestId = '' } = useParams();
  const query = useSupportRequest(requestId);
  const reply = useReplySupportRequest();
  const { data: session } = useSession();
  const back = { to: paths.app.support.href(), label: 'Help & support' };
  return (
    <RecordPage
      query={query}
      noun="support request"
      back={back}
      header={(request) => ({
        title: typeLabel(request.type),
        description: `Filed ${formatDateTime(request.createdAt)}${
          request.requester._id !== session?.user._id ? ` by ${request.requester.name}` : ''
        }`,
        aside: (
          <Badge size="lg" variant="light" color={STATUS_TEXT[request.status].color}>
            {STATUS_TEXT[request.status].label}
          </Badge>
        ),
      })}
    >
      {(request) => (
        <Stack gap="lg">
          <SectionCard title="Conversation">
            <Stack gap="md">
              <SupportThread request={request} />
              {request.images.length > 0 && (
                <Stack gap="xs">
                  <Text size="sm" fw={500}>
                    Pictures
                  </Text>
                  <SupportImages requestId={request._id} images={request.images} useImage={useSupportImage} />
                </Stack>
              )}
              {request.navId && (
                <Group gap={6}>
                  <Text size="sm" c="dimmed">
                    Sent from:
                  </Text>
                  <Anchor
                    component={Link}
                    to={request.navId}
                    size="sm"
                    ff="monospace"
                    style={{ overflowWrap: 'anywhere' }}
                  >
                    {request.navId}
                  </Anchor>
                </Group>
              )}
              <ReplyForm
                label="Your message"
                description={
                  request.status === 'closed'
                    ? 'This request is closed; a new message opens it again.'
                    : 'Support sees it in their inbox.'
                }
                submitLabel="Send message"
                pending={reply.isPending}
                send={(message) => reply.mutateAsync({ requestId: request._id, message })}
              />
            </Stack>
          </SectionCard>
        </Stack>
      )}
    </RecordPage>
  );
}
