import type { SupportImage } from '@latchkey/shared';
import { Image, Modal, Skeleton, Text, UnstyledButton, SimpleGrid } from '@mantine/core';
import { useState } from 'react';

/** Loads one image of a request as an object URL (the person's side or staff's). */
export type UseImage = (
  requestId: string,
  imageId: string,
  size: 'large' | 'thumb',
) => { url: string | null; isError: boolean };

function Thumb({
  requestId,
  image,
  index,
  useImage,
  onOpen,
}: {
  requestId: string;
  image: SupportImage;
  index: number;
  useImage: UseImage;
  onOpen: () => void;
}) {
  const { url, isError } = useImage(requestId, image._id, 'thumb');
  if (isError)
    return (
      <Text size="sm" c="dimmed">
        Image {index + 1} could not be loaded
      </Text>
    );
  if (!url) return <Skeleton height={96} radius="md" />;
  return (
    <UnstyledButton onClick={onOpen} aria-label={`Open image ${index + 1} at full size`}>
      <Image src={url} alt={`Image ${index + 1} of the request`} h={96} fit="cover" radius="md" />
    </UnstyledButton>
  );
}

function Large({
  requestId,
  image,
  index,
  useImage,
}: {
  requestId: string;
  image: SupportImage;
  index: number;
  useImage: UseImage;
}) {
  const { url, isError } = useImage(requestId, image._id, 'large');
  if (isError) return <Text c="dimmed">The image could not be loaded</Text>;
  if (!url) return <Skeleton height={320} radius="md" />;
  return (
    <Image
      src={url}
      alt={`Image ${index + 1} of the request, full size`}
      radius="md"
      fit="contain"
      mah="75vh"
    />
  );
}

/** A request's images as thumbnails; one opens at full size in a dialog. */
export function SupportImages({
  requestId,
  images,
  useImage,
}: {
  requestId: string;
  images: SupportImage[];
  useImage: UseImage;
}) {
  const [open, setOpen] = useState<number | null>(null);
  if (images.length === 0) return null;
  const current = open === null ? null : images[open];
  return (
    <>
      <SimpleGrid cols={{ base: 3, sm: 5 }} spacing="xs">
        {images.map((image, index) => (
          <Thumb
            key={image._id}
            requestId={requestId}
            image={image}
            index={index}
            useImage={useImage}
            onOpen={() => setOpen(index)}
          />
        ))}
      </SimpleGrid>
      <Modal
        opened={current !== null && current !== undefined}
        onClose={() => setOpen(null)}
        title={open === null ? '' : `Image ${open + 1} of ${images.length}`}
        size="xl"
        centered
        closeButtonProps={{ 'aria-label': 'Close the image' }}
      >
        {current && open !== null && (
          <Large requestId={requestId} image={current} index={open} useImage={useImage} />
        )}
      </Modal>
    </>
  );
}
