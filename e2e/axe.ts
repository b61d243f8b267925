import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

// axe-core, the engine @axe-core/playwright drives, run in the page itself: injected once per
// page load and asked for violations only. AxeBuilder's analyze() injects it again at every call
// and finishes every scan in a new blank page; on CI's 2-core machine that was about 4 s a scan
// against 1 s here, for the same violations (docs/benchmarks.md, "CI duration").
const fromAxePlaywright = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'));
const axeSource = fs.readFileSync(fromAxePlaywright.resolve('axe-core/axe.min.js'), 'utf8');

/** The rules of WCAG 2.0 and 2.1, levels A and AA: the level the app claims. */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; html: string; failureSummary?: string }[];
}

/**
 * The WCAG 2.1 AA rules whose result depends on colours: the only ones a second colour scheme can
 * change (names, landmarks, headings and forms are the same markup in either scheme).
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * What axe-core finds against WCAG 2.1 AA in the page as it is now, in every frame; with `rules`,
 * only those rules are run.
 */
export async function axeViolations(page: Page, rules?: string[]): Promise<AxeViolation[]> {
  // Frames too, as AxeBuilder does: axe in the page asks each frame's own copy about its content.
  for (const frame of page.frames()) {
    if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(axeSource);
  }
  return page.evaluate(
    async ({ tags, rules }) => {
      const axe = (
        window as unknown as {
          axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> };
        }
      ).axe;
      const { violations } = await axe.run(document, {
        runOnly: rules ? { type: 'rule', values: rules } : { type: 'tag', values: tags },
        // Passing and inapplicable checks are not collected: only violations fail a scan.
        resultTypes: ['violations'],
      });
      return violations.map(({ id, impact, help, nodes }) => ({
        id,
        impact: impact ?? null,
        help,
        nodes: nodes.map(({ target, html, failureSummary }) => ({ target, html, failureSummary })),
      }));
    },
    { tags: WCAG_AA, rules },
  );
}
