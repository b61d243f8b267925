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

/**
 * Until the person chooses: every section open on a wider screen (all of it fits a laptop's);
 * below the frame's `sm` breakpoint, where it is a drawer over a phone's screen, only the current
 * page's (AppNav opens it), so the drawer shows every heading without scrolling.
 */
function foldedAtFirst(): NavGroupId[] {
  const phone = window.matchMedia(`(max-width: ${BREAKPOINTS_PX[0] - 0.02}px)`).matches;
  return phone ? NAV_GROUPS.map((group) => group.id) : [];
}

/**
 * The layout's navigation, in sections with a heading each. A heading folds its section away and
 * the choice is remembered on this device; the section of the current page opens again when the
 * person arrives there, so the current page is never hidden.
 */
export function AppNav({ items, activeTo, onNavigate, visibility }: AppNavProps) {
  const sections = navSections(items);
  const [folded, setFolded] = useLocalStorage<NavGroupId[]>({
    key: 'latchkey.navFolded',
    defaultValue: foldedAtFirst(),
    getInitialValueInEffect: false,
  });
  const activeGroup = items.find((item) => item.to === activeTo)?.group ?? null;
  useEffect(() => {
    if (activeGroup) setFolded((current) => current.filter((id) => id !== activeGroup));
  }, [activeGroup, setFolded]);
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
              onClick={() =>
                setFolded((current) => (open ? [...current, id] : current.filter((g) => g !== id)))
              }
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
