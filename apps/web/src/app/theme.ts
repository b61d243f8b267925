import { BREAKPOINTS_PX, COLORS } from '@latchkey/shared';
import {
  createTheme,
  darken,
  lighten,
  luminance,
  type CSSVariablesResolver,
  type MantineColorsTuple,
} from '@mantine/core';
import { accessibleClearButton } from '@/lib/clear-button';

/** Ten shades of the brand slate blue; index 6 is the brand colour itself (#3F5B68). */
export const latchkeyBlue: MantineColorsTuple = [
  '#f0f5f7',
  '#dde7eb',
  '#bfd1d9',
  '#9cb7c4',
  '#7a9eae',
  '#598092',
  COLORS.primary,
  '#344b56',
  '#293c45',
  '#1d2d34',
];

const em = (px: number) => `${px / 16}em`;
const [sm, md, lg, xl] = BREAKPOINTS_PX;

export const theme = createTheme({
  primaryColor: 'latchkey',
  primaryShade: { light: 6, dark: 6 },
  colors: { latchkey: latchkeyBlue },
  black: COLORS.dark,
  white: '#FFFFFF',
  autoContrast: true,
  defaultRadius: 'md',
  cursorType: 'pointer',
  focusRing: 'auto',
  // Brief §9: 600/1024/1440/1920 px as sm/md/lg/xl; xs is the small-phone step below them.
  breakpoints: { xs: em(480), sm: em(sm), md: em(md), lg: em(lg), xl: em(xl) },
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  // Plain objects, not Select.extend(): importing the components here would put them, and the
  // combobox and floating layer behind them, in every page's first load (sign-in has no select).
  components: {
    // Mantine keeps every combobox's dropdown mounted (hidden), so each select positions its
    // floating list on mount, a forced layout of the whole page (a quarter of the dashboard's
    // script time at 4x CPU). Mounted only while open, it costs nothing until used; the input's
    // aria-controls is only set while open either way.
    Combobox: { defaultProps: { keepMounted: false } },
    // Native overflow instead of Mantine's drawn scrollbars, which measure their viewport in layout
    // effects (forced layouts on every list's first render) and add nothing a trackpad needs.
    // Positioned, so it is the containing block of what a table holds absolutely positioned (a
    // header's VisuallyHidden "Actions" label): its overflow then clips it. Otherwise the label
    // sits outside the scroll box at its column's place and widens the page on a phone.
    TableScrollContainer: {
      defaultProps: { type: 'native' },
      styles: { scrollContainer: { position: 'relative' } },
    },
    Select: { defaultProps: { clearButtonProps: accessibleClearButton() } },
    MultiSelect: { defaultProps: { clearButtonProps: accessibleClearButton() } },
  },
});

/** WCAG AA for normal-size text. */
const READABLE = 4.5;

const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

/**
 * The colour, darkened (or, on dark backgrounds, lightened) in 5 % steps until it reads at 4.5:1
 * on every given background. Mantine's shade 6 does not for most colours (red 3.3:1 on white,
 * teal 2.6:1), nor shade 9 on shade 1 for yellow or orange, nor dimmed text in the dark scheme.
 */
function readable(color: string, backgrounds: string[], adjust: typeof darken = darken): string {
  const passes = (candidate: string) =>
    backgrounds.every((background) => contrast(candidate, background) >= READABLE);
  let step = 0;
  while (!passes(adjust(color, step)) && step < 1) step += 0.05;
  return adjust(color, step);
}

/**
 * Text colour follows the scheme (brief §4): dark text on light, light text on dark.
 *
 * In the light scheme every colour's text, outline and filled variants (white text on it) use its
 * shade 6 darkened until readable, and so does the text of light badges and alerts on their tinted background;
 * dimmed text (gray 6, 3.3:1 on white) becomes readable on the grey page background too. In the
 * dark scheme, dimmed text (dark 2, 4.0:1 on the cards) and error text are lightened until readable.
 * e2e/accessibility.spec.ts holds the screens, in both schemes, to WCAG AA with axe.
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => {
  const white = resolved.white;
  const pageBackground = resolved.colors.gray[1];
  const light: Record<string, string> = {
    '--mantine-color-text': COLORS.dark,
    '--mantine-color-dimmed': readable(resolved.colors.gray[6], [white, pageBackground]),
    '--mantine-color-error': readable(resolved.colors.red[6], [white]),
  };
  for (const [name, shades] of Object.entries(resolved.colors)) {
    if (name === resolved.primaryColor || name === 'dark' || name === 'gray') continue;
    const strong = readable(shades[6]!, [white]);
    light[`--mantine-color-${name}-filled`] = strong;
    light[`--mantine-color-${name}-filled-hover`] = darken(strong, 0.1);
    light[`--mantine-color-${name}-text`] = strong;
    light[`--mantine-color-${name}-outline`] = strong;
    light[`--mantine-color-${name}-light-color`] = readable(shades[9]!, [shades[1]!, shades[2]!]);
  }
  const { dark: darks } = resolved.colors;
  const dark = {
    '--mantine-color-text': COLORS.light,
    // Cards and the page: dark 7 and dark 8.
    '--mantine-color-dimmed': readable(darks[2], [darks[7], darks[8]], lighten),
    // Field errors: on inputs (dark 6) and cards.
    '--mantine-color-error': readable(resolved.colors.red[6], [darks[6], darks[7]], lighten),
  };
  return { variables: {}, light, dark };
};
