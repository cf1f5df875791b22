import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const COLOR_SCHEMES = ['light', 'dark'] as const;
export const WIDTHS = [1280, 360] as const;
const HEIGHT: Record<(typeof WIDTHS)[number], number> = { 1280: 800, 360: 740 };

type ColorScheme = (typeof COLOR_SCHEMES)[number];
type Width = (typeof WIDTHS)[number];

/**
 * Where `npm run screenshots` wants the pictures of the docs (FERRY_SCREENSHOTS=docs/images);
 * unset, as under `npm test`, nothing tracked is written.
 */
const DOCS_IMAGES = process.env.FERRY_SCREENSHOTS;

export interface ScreenVisit {
  /** Stable and descriptive: the picture's file name without `.png`. */
  name: string;
  /** The one variant that goes to docs/images under `npm run screenshots`, as `<name>.png`. */
  docs?: { scheme: ColorScheme; width: Width };
  /** What the pictures must show, scrolled into view at each width. */
  shows?: Locator;
}

/**
 * Looks at one screen as it stands in each color scheme and at each width: axe finds no
 * violation (each one is reported with its id, impact, targets and summary), and a picture of
 * each variant is kept in the test's output folder.
 */
export async function checkScreen(page: Page, testInfo: TestInfo, visit: ScreenVisit) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: HEIGHT[width] });
    await visit.shows?.scrollIntoViewIfNeeded();
    for (const scheme of COLOR_SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      // Colors ease into the new scheme: axe reads them once they have arrived.
      await page.evaluate(() =>
        Promise.all(
          document
            .getAnimations()
            .filter((animation) => animation instanceof CSSTransition)
            .map((animation) => animation.finished.catch(() => undefined)),
        ),
      );
      const variant = `${visit.name}-${scheme}-${width}`;
      const { violations } = await new AxeBuilder({ page }).analyze();
      const described = violations.flatMap((violation) =>
        violation.nodes.map(
          (node) =>
            `${violation.id} (${violation.impact ?? 'no impact'}) at ${node.target.join(' ')} ${node.html}: ${node.failureSummary ?? violation.help}`,
        ),
      );
      expect.soft(described, `axe violations on ${variant}`).toEqual([]);
      const picture = testInfo.outputPath(`${variant}.png`);
      await page.screenshot({ path: picture, animations: 'disabled', caret: 'hide' });
      if (
        DOCS_IMAGES !== undefined &&
        visit.docs?.scheme === scheme &&
        visit.docs.width === width
      ) {
        mkdirSync(resolve(DOCS_IMAGES), { recursive: true });
        await page.screenshot({
          path: join(resolve(DOCS_IMAGES), `${visit.name}.png`),
          animations: 'disabled',
          caret: 'hide',
        });
      }
    }
  }
  await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT[WIDTHS[0]] });
  await page.emulateMedia({ colorScheme: 'light' });
}

/** What one press of Tab landed on, as the walk saw it. */
interface FocusStop {
  mark: string | null;
  describe: string;
  indicated: boolean;
}

/**
 * Presses Tab from the top of the page until the focus comes round again, and checks that every
 * visible, enabled control and every list that scrolls was reached, each with a visible focus
 * indicator. Of a tab list or a radio group only the one in the tab order counts (arrow keys
 * move within it).
 */
export async function walkKeyboard(page: Page, screen: string): Promise<void> {
  const expected = await page.evaluate(() => {
    const visible = (element: Element): boolean => {
      const box = element.getBoundingClientRect();
      return (
        box.width > 0 && box.height > 0 && element.checkVisibility({ visibilityProperty: true })
      );
    };
    const scrolls = (element: Element): boolean => {
      const { overflowY } = getComputedStyle(element);
      return (
        (overflowY === 'auto' || overflowY === 'scroll') &&
        element.scrollHeight > element.clientHeight + 1
      );
    };
    const controls = [
      ...document.querySelectorAll('button, a[href], input, select, textarea, summary'),
    ].filter((element) => {
      if (element.closest('[inert]') !== null || !visible(element)) return false;
      if ((element as HTMLButtonElement).disabled) return false;
      if (element.getAttribute('role') === 'tab') return element.getAttribute('tabindex') !== '-1';
      if (element instanceof HTMLInputElement && element.type === 'radio') return element.checked;
      if (element.tagName === 'SUMMARY') return element.parentElement?.tagName === 'DETAILS';
      return true;
    });
    const lists = [...document.querySelectorAll('*')].filter(
      (element) => visible(element) && scrolls(element) && element !== document.scrollingElement,
    );
    return [...new Set([...controls, ...lists])].map((element, index) => {
      element.setAttribute('data-tour-mark', String(index));
      const label =
        element.getAttribute('aria-label') ??
        (element as HTMLElement).innerText?.trim().slice(0, 40) ??
        '';
      return { mark: String(index), describe: `<${element.tagName.toLowerCase()}> “${label}”` };
    });
  });

  // Tab from the top: focus a mark before everything else (itself out of the Tab order).
  await page.evaluate(() => {
    const start = document.createElement('span');
    start.tabIndex = -1;
    start.setAttribute('data-tour-start', '');
    document.body.prepend(start);
    start.focus();
  });
  const stops: FocusStop[] = [];
  for (let press = 0; press < expected.length + 10; press += 1) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate((): FocusStop | null => {
      const focused = document.activeElement;
      if (focused === null || focused === document.body) return null;
      const style = getComputedStyle(focused);
      const outlined = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
      const label =
        focused.getAttribute('aria-label') ??
        (focused as HTMLElement).innerText?.trim().slice(0, 40) ??
        '';
      return {
        mark: focused.getAttribute('data-tour-mark'),
        describe: `<${focused.tagName.toLowerCase()}> “${label}”`,
        indicated: outlined || style.boxShadow !== 'none',
      };
    });
    if (stop === null) break;
    if (stops.some((seen) => seen.mark !== null && seen.mark === stop.mark)) break;
    stops.push(stop);
  }
  await page.evaluate(() => {
    for (const element of document.querySelectorAll('[data-tour-mark]'))
      element.removeAttribute('data-tour-mark');
    document.querySelector('[data-tour-start]')?.remove();
  });

  expect(stops.length, `Tab reaches nothing on ${screen}`).toBeGreaterThan(0);
  const reached = new Set(stops.map((stop) => stop.mark));
  expect
    .soft(
      expected.filter(({ mark }) => !reached.has(mark)).map(({ describe }) => describe),
      `controls Tab never reaches on ${screen}`,
    )
    .toEqual([]);
  expect
    .soft(
      stops.filter((stop) => !stop.indicated).map(({ describe }) => describe),
      `focused without a visible focus indicator on ${screen}`,
    )
    .toEqual([]);
}
