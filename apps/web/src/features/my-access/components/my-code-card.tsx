import { ActionIcon, Code, Group, Skeleton, Text, Tooltip } from '@mantine/core';
import { IconEye, IconEyeOff } from '@tabler/icons-react';
import { useState } from 'react';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { useMyAccessCode } from '../api/get-my-access';

/** The person's own keypad code, hidden until asked for (someone may be looking over a shoulder). */
export function MyCodeCard({ userId }: { userId: string }) {
  const code = useMyAccessCode(userId);
  const [revealed, setRevealed] = useState(false);

  let body;
  if (code.isPending) body = <Skeleton h={28} w={160} aria-label="Loading your code" />;
  else if (code.error) {
    body = (
      <QueryError title="Could not load your code" error={code.error} onRetry={() => void code.refetch()} />
    );
  } else if (code.data === null) {
    body = (
      <Text size="sm" c="dimmed">
        You have no keypad code yet. Your portal admin can give you one.
      </Text>
    );
  } else {
    body = (
      <Group gap="xs">
        <Code fz="lg" aria-label={revealed ? 'Your code' : 'Your code, hidden'}>
          {revealed ? code.data : '•'.repeat(code.data.length)}
        </Code>
        <Tooltip label={revealed ? 'Hide' : 'Show'} withArrow>
          <ActionIcon
            variant="subtle"
            onClick={() => setRevealed((shown) => !shown)}
            aria-label={revealed ? 'Hide the code' : 'Show the code'}
          >
            {revealed ? (
              <IconEyeOff size={18} aria-hidden="true" />
            ) : (
              <IconEye size={18} aria-hidden="true" />
            )}
          </ActionIcon>
        </Tooltip>
      </Group>
    );
  }

  return (
    <SectionCard title="Your keypad code" description="Type it on the keypad of any of your locks.">
      {body}
    </SectionCard>
  );
}
