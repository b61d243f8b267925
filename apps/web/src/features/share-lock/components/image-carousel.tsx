import type { RentalImage } from '@latchkey/shared';
import { ActionIcon, Box, Group, Image, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useState } from 'react';
import classes from './share-lock.module.css';

/**
 * Images one at a time with previous and next buttons (and the arrow keys on the carousel), a
 * counter and dots; each image keeps its alt text, and the region is announced as a carousel.
 */
export function ImageCarousel({ images, label }: { images: readonly RentalImage[]; label: string }) {
  const [index, setIndex] = useState(0);
  if (images.length === 0) return null;
  const at = Math.min(index, images.length - 1);
  const image = images[at]!;
  const go = (next: number) => setIndex((next + images.length) % images.length);
  return (
    <Box
      component="section"
      aria-roledescription="carousel"
      aria-label={label}
      className={classes.carousel}
      onKeyDown={(event) => {
        if (event.key === 'ArrowLeft') go(at - 1);
        if (event.key === 'ArrowRight') go(at + 1);
      }}
    >
      <div aria-roledescription="slide" aria-label={`${at + 1} of ${images.length}`} role="group">
        <Image
          src={image.url}
          alt={image.alt || `Picture ${at + 1}`}
          radius="md"
          fit="cover"
          className={classes.slide}
          style={{ aspectRatio: '3 / 2' }}
        />
      </div>
      {images.length > 1 && (
        <Group justify="space-between" mt="xs" wrap="nowrap">
          <ActionIcon variant="default" size="lg" aria-label="Previous picture" onClick={() => go(at - 1)}>
            <IconChevronLeft size={20} aria-hidden="true" />
          </ActionIcon>
          <Group gap={6} aria-hidden="true">
            {images.map((item, i) => (
              <span key={item._id} className={classes.dot} data-active={i === at || undefined} />
            ))}
          </Group>
          <Text size="xs" c="dimmed" aria-live="polite">
            {at + 1} / {images.length}
          </Text>
          <ActionIcon variant="default" size="lg" aria-label="Next picture" onClick={() => go(at + 1)}>
            <IconChevronRight size={20} aria-hidden="true" />
          </ActionIcon>
        </Group>
      )}
    </Box>
  );
}
