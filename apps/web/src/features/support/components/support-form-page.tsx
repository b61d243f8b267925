import { SUPPORT_MAX_IMAGES, SUPPORT_TEXT_MAX, supportRequestInputSchema } from '@latchkey/shared';
import {
  ActionIcon,
  Alert,
  Button,
  FileButton,
  Group,
  Image,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconPhotoPlus, IconX } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { BackLink } from '@/components/back-link';
import { MissingRecord } from '@/components/missing-record';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { formResolver, useFormMutation } from '@/lib/forms';
import { useFileSupportRequest } from '../api/file-support-request';
import { navIdFrom, supportTypeOf, TYPE_HINTS, typeLabel } from './support-text';

/** The largest picture taken, as the server does (12 MB). */
const MAX_IMAGE_BYTES = 12 * 1024 * 1024;
const ACCEPT = 'image/jpeg,image/png,image/webp,image/gif,image/avif';

/** Chosen pictures with their previews (object URLs, released when they go). */
function usePreviews(files: File[]) {
  const urls = useMemo(() => files.map((file) => URL.createObjectURL(file)), [files]);
  useEffect(() => () => urls.forEach((url) => URL.revokeObjectURL(url)), [urls]);
  return urls;
}

const LABELS = { description: 'What happened', navId: 'Screen', type: 'Type' } as const;

/** /app/support/:supportType: the form of one type, with pictures and the screen the person came from. */
export function SupportFormPage() {
  const { supportType } = useParams();
  const type = supportTypeOf(supportType);
  const [search] = useSearchParams();
  const navId = navIdFrom(search.get('from'));
  const navigate = useNavigate();
  const file = useFileSupportRequest();
  const [images, setImages] = useState<File[]>([]);
  const [imageError, setImageError] = useState<string | null>(null);
  const previews = usePreviews(images);
  const form = useForm({
    initialValues: { description: '' },
    validate: formResolver(supportRequestInputSchema, LABELS, (values: { description: string }) => ({
      type: type ?? 'other',
      navId,
      ...values,
    })),
  });
  const { submit } = useFormMutation(form, {
    labels: LABELS,
    run: async (values) => {
      const created = await file.mutateAsync({
        type: type ?? 'other',
        description: values.description,
        navId,
        images,
      });
      notifications.show({
        color: 'teal',
        title: 'Request sent',
        message: 'Latchkey support will answer here and by email.',
      });
      await navigate(paths.app.supportRequest.href(created._id));
    },
    otherwise: (message) => setImageError(message),
  });

  if (!type) {
    return (
      <MissingRecord
        what="This kind of request"
        backTo={paths.app.support.href()}
        backLabel="Help & support"
      />
    );
  }

  const addImages = (chosen: File[]) => {
    setImageError(null);
    const taken = chosen.filter((image) => image.type.startsWith('image/') && image.size <= MAX_IMAGE_BYTES);
    if (taken.length < chosen.length) setImageError('Only pictures of at most 12 MB each can be added.');
    const next = [...images, ...taken];
    if (next.length > SUPPORT_MAX_IMAGES) setImageError(`At most ${SUPPORT_MAX_IMAGES} pictures.`);
    setImages(next.slice(0, SUPPORT_MAX_IMAGES));
  };

  return (
    <Stack gap="lg" maw={760}>
      <BackLink to={paths.app.support.href({ from: navId || undefined })} label="Help & support" />
      <PageHeader title={`New request: ${typeLabel(type)}`} description={TYPE_HINTS[type]} />
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Textarea
              label={LABELS.description}
              description="What did you try, what did you expect, what happened instead?"
              required
              autosize
              minRows={5}
              maxRows={16}
              maxLength={SUPPORT_TEXT_MAX}
              {...form.getInputProps('description')}
            />
            <Stack gap={6}>
              <Text size="sm" fw={500} id="pictures-label">
                Pictures (optional)
              </Text>
              <Text size="xs" c="dimmed">
                Up to {SUPPORT_MAX_IMAGES} screenshots or photos. We remove their location and camera details.
              </Text>
              {images.length > 0 && (
                <SimpleGrid cols={{ base: 3, sm: 5 }} spacing="xs" aria-labelledby="pictures-label">
                  {images.map((image, index) => (
                    <div key={previews[index]} style={{ position: 'relative' }}>
                      <Image
                        src={previews[index]}
                        alt={`Picture ${index + 1}: ${image.name}`}
                        h={96}
                        fit="cover"
                        radius="md"
                      />
                      <ActionIcon
                        size="sm"
                        radius="xl"
                        color="dark"
                        variant="filled"
                        style={{ position: 'absolute', top: 4, right: 4 }}
                        aria-label={`Remove picture ${index + 1}`}
                        onClick={() => setImages(images.filter((_, i) => i !== index))}
                      >
                        <IconX size={14} aria-hidden="true" />
                      </ActionIcon>
                    </div>
                  ))}
                </SimpleGrid>
              )}
              <Group>
                <FileButton onChange={addImages} accept={ACCEPT} multiple>
                  {(props) => (
                    <Button
                      {...props}
                      variant="default"
                      leftSection={<IconPhotoPlus size={16} aria-hidden="true" />}
                      disabled={images.length >= SUPPORT_MAX_IMAGES}
                    >
                      Add pictures
                    </Button>
                  )}
                </FileButton>
              </Group>
              {imageError && (
                <Alert color="red" variant="light" role="alert">
                  {imageError}
                </Alert>
              )}
            </Stack>
            <Text size="sm" c="dimmed">
              {navId ? (
                <>
                  Sent with the screen you were on:{' '}
                  <Text span ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {navId}
                  </Text>
                </>
              ) : (
                'Sent with your account and portal, so support knows where to look.'
              )}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" component={Link} to={paths.app.support.href()}>
                Cancel
              </Button>
              <Button type="submit" loading={file.isPending}>
                Send request
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
