import { BREAKPOINTS_PX, COLORS } from '@latchkey/shared';
import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

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
});

/** Text colour follows the scheme (brief §4): dark text on light, light text on dark. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-text': COLORS.dark },
  dark: { '--mantine-color-text': COLORS.light },
});
