import { Group, Text, type GroupProps } from '@mantine/core';

interface LogoMarkProps {
  size?: number;
}

/** The Latchkey padlock mark (decorative: the word mark next to it carries the name). */
export function LogoMark({ size = 32 }: LogoMarkProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="var(--mantine-color-latchkey-6)" />
      <path
        d="M11 14v-3a5 5 0 0 1 10 0v3"
        fill="none"
        stroke="#FAFAF9"
        strokeWidth="2.6"
        strokeLinecap="round"
      />
      <rect x="8" y="14" width="16" height="12" rx="2.5" fill="#FAFAF9" />
      <circle cx="16" cy="19.2" r="1.8" fill="var(--mantine-color-latchkey-6)" />
      <rect x="15.1" y="19.5" width="1.8" height="3.8" rx=".9" fill="var(--mantine-color-latchkey-6)" />
    </svg>
  );
}

interface LogoProps extends GroupProps {
  size?: number;
}

/** Mark and word mark. */
export function Logo({ size = 32, ...props }: LogoProps) {
  return (
    <Group gap={10} wrap="nowrap" {...props}>
      <LogoMark size={size} />
      <Text component="span" fw={700} fz={size * 0.62} lh={1} style={{ letterSpacing: '-0.01em' }}>
        Latchkey
      </Text>
    </Group>
  );
}
