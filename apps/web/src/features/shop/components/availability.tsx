import { Badge } from '@mantine/core';

/** "In stock", "Only 3 left" or "Sold out". */
export function Availability({ available }: { available: number }) {
  if (available <= 0)
    return (
      <Badge color="red" variant="light">
        Sold out
      </Badge>
    );
  if (available <= 5)
    return (
      <Badge color="orange" variant="light">
        Only {available} left
      </Badge>
    );
  return (
    <Badge color="teal" variant="light">
      In stock
    </Badge>
  );
}
