import { AspectRatio, Image } from '@mantine/core';

/** A product's picture, in the catalogue's 4:3 frame. */
export function ProductImage({ src, name, radius = 'md' }: { src: string; name: string; radius?: string }) {
  return (
    <AspectRatio ratio={4 / 3}>
      <Image src={src} alt={name} radius={radius} fit="cover" />
    </AspectRatio>
  );
}
