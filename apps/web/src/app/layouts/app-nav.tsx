import { BREAKPOINTS_PX } from '@latchkey/shared';
import { ActionIcon, Collapse, Group, NavLink, Stack, UnstyledButton } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconChevronDown, IconEye, IconEyeOff } from '@tabler/icons-react';
import { useEffect, useId } from 'react';
import { Link } from 'react-router';
import { NAV_GROUPS, type NavGroupId, type NavItem } from '../route-handle';
import classes from './app-frame.module.css';

interface AppNavProps {
  /** The entries the person may open, in the order they are declared. */
  items: readonly NavItem[];
  /** The address of the entry that is the current page. */
  activeTo: string | null;
  onNavigate: () => void;
  /**
   * CMS mode (platform staff): the entries hidden for everyone, shown dimmed here, and a hide/show
   * control beside each entry.
   */
  visibility?: { hidden: readonly string[]; toggle: (to: string, hide: boolean) => void };
}

interface Section {
  id: NavGroupId | null;
  label: string | null;
  items: NavItem[];
}

/** The entries by section: ungrouped ones first, then each group that has any, in NAV_GROUPS order. */
export function navSections(items: readonly NavItem[]): Section[] {
  const top: Section = { id: null, label: null, items: items.filter((item) => !item.group) };
  const groups = NAV_GROUPS.map((group): Section => ({
    id: group.id,
    label: group.label,
    items: items.filter((item) => item.group === group.id),
  }));
  return [top, ...groups].filter((section) => section.items.length > 0);
}

/** A link row (28 px, app-frame.module.css) and a heading with the gap above it, on a laptop. */
const ROW_PX = 28;
const HEADING_PX = 27;
/** A heading on a touch screen: a 44 px tap target and its gap. */
const TOUCH_HEADING_PX = 48;
/** The header above the navigation and the navigation's own padding. */
const FRAME_PX = 60 + 24;
/**
 * The sections folded first when the whole list does not fit the window, the ones opened least
 * often first. Settings (Help & support, everyone's) and Platform (staff's own screens) stay open.
 */
const FOLD_ORDER: readonly NavGroupId[] = ['billing', 'rentals', 'people', 'locks'];

/**
 * The sections folded until the person chooses. Below the frame's `sm` breakpoint, where the
 * navigation is a drawer over a phone's screen, all but the current page's, so the drawer shows
 * every heading. On a wider screen every section is open when the whole list fits the window's
 * height; when it does not (platform staff's, with their portal's sections and the platform's; a
 * reseller's), sections fold in FOLD_ORDER until it fits, never the current page's nor one with a
 * reseller's entry. Heights are counted from the rows, and the window asked through media queries,
 * which need no layout (innerHeight would force one before the first paint).
 */
export function foldedAtFirst(sections: readonly Section[], activeGroup: NavGroupId | null): NavGroupId[] {
  const media = (query: string) => window.matchMedia(query).matches;
  const groups = sections.flatMap((section) => (section.id ? [section.id] : []));
  if (media(`(max-width: ${BREAKPOINTS_PX[0] - 0.02}px)`)) return groups.filter((id) => id !== activeGroup);
  const headingPx = media('(pointer: coarse)') ? TOUCH_HEADING_PX : HEADING_PX;
  let height =
    FRAME_PX +
    sections.reduce((sum, section) => sum + (section.id ? headingPx : 0) + section.items.length * ROW_PX, 0);
  const folded: NavGroupId[] = [];
  for (const id of FOLD_ORDER) {
    if (!media(`(max-height: ${height - 0.02}px)`)) break;
    const section = sections.find((candidate) => candidate.id === id);
    if (!section || id === activeGroup || section.items.some((item) => item.resellersOnly)) continue;
    folded.push(id);
    height -= section.items.length * ROW_PX;
  }
  return folded;
}

/**
 * The layout's navigation, in sections with a heading each. A heading folds its section away and
 * the choice is remembered on this device; the section of the current page opens again when the
 * person arrives there, so the current page is never hidden. Until the person folds or opens one,
 * the sections follow foldedAtFirst, for the page they are on.
 */
export function AppNav({ items, activeTo, onNavigate, visibility }: AppNavProps) {
  const sections = navSections(items);
  // null: the person has not chosen yet (nothing stored).
  const [chosen, setChosen] = useLocalStorage<NavGroupId[] | null>({
    key: 'latchkey.navFolded',
    defaultValue: null,
    getInitialValueInEffect: false,
  });
  const activeGroup = items.find((item) => item.to === activeTo)?.group ?? null;
  // Anything but a list (nothing chosen, or a value this code did not write) leaves it to the page.
  const stored = Array.isArray(chosen) ? chosen : null;
  const folded = stored ?? foldedAtFirst(sections, activeGroup);
  useEffect(() => {
    if (activeGroup && stored?.includes(activeGroup)) setChosen(stored.filter((id) => id !== activeGroup));
  }, [activeGroup, stored, setChosen]);
  const idBase = useId();

  const link = (item: NavItem) => {
    const entry = navLink(item);
    if (!visibility) return entry;
    const isHidden = visibility.hidden.includes(item.to);
    return (
      <Group key={item.to} gap={2} wrap="nowrap" style={{ opacity: isHidden ? 0.55 : undefined }}>
        <div style={{ flex: 1, minWidth: 0 }}>{entry}</div>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="md"
          aria-label={`${isHidden ? 'Show' : 'Hide'} ${item.label} in the navigation`}
          aria-pressed={isHidden}
          onClick={() => visibility.toggle(item.to, !isHidden)}
        >
          {isHidden ? <IconEyeOff size={16} aria-hidden="true" /> : <IconEye size={16} aria-hidden="true" />}
        </ActionIcon>
      </Group>
    );
  };

  const navLink = (item: NavItem) => (
    <NavLink
      key={item.to}
      // A plain link: React Router's NavLink would also mark the /user home as the
      // current page on every /user/… page.
      component={Link}
      to={item.to}
      label={item.label}
      className={classes.navLink}
      // Compact rows (28 px with the line height of app-frame.module.css) so the grouped list fits a 900 px screen.
      py={4}
      active={item.to === activeTo}
      aria-current={item.to === activeTo ? 'page' : undefined}
      leftSection={<item.icon size={18} stroke={1.7} aria-hidden="true" />}
      rightSection={item.badge ? <item.badge /> : undefined}
      onClick={onNavigate}
    />
  );

  // A short navigation (the basic user's) needs no headings.
  if (sections.length === 1) return <Stack gap={2}>{sections[0]!.items.map(link)}</Stack>;

  return (
    <Stack gap={4}>
      {sections.map((section) => {
        if (!section.id) {
          return (
            <Stack key="top" gap={0}>
              {section.items.map(link)}
            </Stack>
          );
        }
        const id = section.id;
        const open = !folded.includes(id);
        const panelId = `${idBase}-${id}`;
        return (
          <div key={id}>
            <UnstyledButton
              className={classes.groupHeading}
              aria-expanded={open}
              aria-controls={panelId}
              onClick={() => setChosen(open ? [...folded, id] : folded.filter((g) => g !== id))}
            >
              <span>{section.label}</span>
              <Group gap={6} wrap="nowrap" component="span">
                {/* Folded, the section still shows its entries' counts (the Listings inbox on a phone). */}
                {!open && section.items.map((item) => (item.badge ? <item.badge key={item.to} /> : null))}
                <IconChevronDown
                  size={14}
                  aria-hidden="true"
                  className={classes.groupChevron}
                  data-open={open || undefined}
                />
              </Group>
            </UnstyledButton>
            <Collapse expanded={open} id={panelId} role="group" aria-label={section.label!}>
              <Stack gap={0}>{section.items.map(link)}</Stack>
            </Collapse>
          </div>
        );
      })}
    </Stack>
  );
}
