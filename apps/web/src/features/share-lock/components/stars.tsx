import { Rating, type MantineSize } from '@mantine/core';

/**
 * A review's stars for reading: one image named "4 of 5 stars" (a read-only Rating is a plain
 * element, which may not carry a label of its own).
 */
export function Stars({ value, size }: { value: number; size?: MantineSize }) {
  const label = `${Number.isInteger(value) ? value : value.toFixed(1)} of 5 stars`;
  return (
    <span role="img" aria-label={label} style={{ display: 'inline-flex' }}>
      <Rating
        value={value}
        fractions={Number.isInteger(value) ? 1 : 10}
        readOnly
        size={size}
        aria-hidden="true"
      />
    </span>
  );
}
