import { Center, Loader } from '@mantine/core';

/** Shown by routes that only decide where to go next (landing, sign-out) while they decide. */
export function PendingPage() {
  return (
    <Center mih="40vh">
      <Loader aria-label="Just a moment" />
    </Center>
  );
}
