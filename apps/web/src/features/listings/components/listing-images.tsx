import type { RentalImage } from '@latchkey/shared';
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
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconArrowRight, IconInfoCircle, IconTrash, IconUpload } from '@tabler/icons-react';
import type { QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '@/lib/errors';
import { useImageActions } from '../api/images';

/** The most images a listing or a lock's arrival instructions keep. */
const MAX_IMAGES = 20;

function ImageCard({
  image,
  count,
  actions,
  label,
}: {
  image: RentalImage;
  count: number;
  actions: ReturnType<typeof useImageActions>;
  label: string;
}) {
  const [alt, setAlt] = useState(image.alt);
  const saveAlt = () => {
    if (alt.trim() === image.alt) return;
    actions.update.mutate(
      { imageId: image._id, alt: alt.trim() },
      {
        onError: (error) =>
          notifications.show({
            color: 'red',
            title: 'Could not save the text',
            message: errorMessage(error),
          }),
      },
    );
  };
  const move = (position: number) =>
    actions.update.mutate(
      { imageId: image._id, position },
      {
        onError: (error) =>
          notifications.show({
            color: 'red',
            title: 'Could not move the image',
            message: errorMessage(error),
          }),
      },
    );
  const name = image.alt || `image ${image.position + 1}`;
  return (
    <Paper withBorder radius="md" p="xs">
      <Stack gap="xs">
        <Image src={image.thumbUrl} alt={image.alt} radius="sm" h={120} fit="cover" />
        <TextInput
          size="xs"
          label={`Text for ${label} ${image.position + 1}`}
          description="What the image shows, for screen readers"
          value={alt}
          maxLength={200}
          onChange={(event) => setAlt(event.currentTarget.value)}
          onBlur={saveAlt}
        />
        <Group justify="space-between" gap={4}>
          <Group gap={4}>
            <ActionIcon
              variant="default"
              aria-label={`Move ${name} earlier`}
              disabled={image.position === 0 || actions.update.isPending}
              onClick={() => move(image.position - 1)}
            >
              <IconArrowLeft size={16} aria-hidden="true" />
            </ActionIcon>
            <ActionIcon
              variant="default"
              aria-label={`Move ${name} later`}
              disabled={image.position >= count - 1 || actions.update.isPending}
              onClick={() => move(image.position + 1)}
            >
              <IconArrowRight size={16} aria-hidden="true" />
            </ActionIcon>
          </Group>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Remove ${name}`}
            loading={actions.remove.isPending && actions.remove.variables === image._id}
            onClick={() =>
              actions.remove.mutate(image._id, {
                onError: (error) =>
                  notifications.show({
                    color: 'red',
                    title: 'Could not remove the image',
                    message: errorMessage(error),
                  }),
              })
            }
          >
            <IconTrash size={16} aria-hidden="true" />
          </ActionIcon>
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * Upload, describe, order and remove images (a listing's, or a lock's arrival pictures). The
 * server checks each file by its bytes and keeps it without its metadata (a photo's GPS position).
 */
export function ImageManager({
  images,
  basePath,
  refresh,
  label = 'image',
}: {
  images: readonly RentalImage[];
  /** `listing/{id}` or `device/{id}/sharelock/landing`. */
  basePath: string;
  /** The query to read again after a change. */
  refresh: QueryKey;
  label?: string;
}) {
  const actions = useImageActions(basePath, refresh);
  const [uploading, setUploading] = useState(0);

  const upload = async (files: File[]) => {
    for (const file of files.slice(0, MAX_IMAGES - images.length)) {
      setUploading((n) => n + 1);
      try {
        await actions.upload.mutateAsync({ file, alt: '' });
      } catch (error) {
        notifications.show({
          color: 'red',
          title: `Could not add ${file.name}`,
          message: errorMessage(error),
        });
      } finally {
        setUploading((n) => n - 1);
      }
    }
  };

  return (
    <Stack gap="md">
      {images.length === 0 ? (
        <Text size="sm" c="dimmed">
          No images yet.
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="sm">
          {images.map((image) => (
            <ImageCard key={image._id} image={image} count={images.length} actions={actions} label={label} />
          ))}
        </SimpleGrid>
      )}
      <Group gap="sm">
        <FileButton
          onChange={(files) => void upload(files)}
          accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
          multiple
        >
          {(props) => (
            <Button
              {...props}
              variant="default"
              leftSection={<IconUpload size={16} aria-hidden="true" />}
              loading={uploading > 0}
              disabled={images.length >= MAX_IMAGES}
            >
              Add images
            </Button>
          )}
        </FileButton>
        <Text size="xs" c="dimmed">
          JPEG, PNG, WebP, GIF or AVIF, up to 12 MB each; {images.length} of {MAX_IMAGES}.
        </Text>
      </Group>
      {images.some((image) => !image.alt) && (
        <Alert color="yellow" variant="light" icon={<IconInfoCircle aria-hidden="true" />}>
          Describe each image in a few words, so people using a screen reader know what it shows.
        </Alert>
      )}
    </Stack>
  );
}
