import type { BrandId } from '@latchkey/shared';
import { Box, Group, type GroupProps } from '@mantine/core';
import { brandOf, LOGO_WIDTH_AT_40 } from '@/lib/brand';

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
  /** The brand to show; the host's when unset (lib/brand.ts). */
  brand?: BrandId | null;
}

/**
 * The brand's logo (mark and word mark): its light variant on the light colour scheme and its dark
 * variant on the dark one (brief §1, §4), switched by CSS so neither flashes.
 */
export function Logo({ size = 32, brand, ...props }: LogoProps) {
  const { id, name, logo } = brandOf(brand);
  const height = Math.round(size * 1.25);
  const width = Math.round((LOGO_WIDTH_AT_40[id] * height) / 40);
  return (
    <Group gap={0} wrap="nowrap" data-brand={id} {...props}>
      <Box component="img" src={logo.light} alt={name} width={width} height={height} darkHidden />
      <Box component="img" src={logo.dark} alt={name} width={width} height={height} lightHidden />
    </Group>
  );
}
