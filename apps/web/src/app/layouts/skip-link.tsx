import classes from './layouts.module.css';

/** The id of each layout's main region, the skip link's target. */
export const MAIN_ID = 'main-content';

/** 'Skip to main content': the first focusable element of every layout (WCAG 2.4.1). */
export function SkipLink() {
  return (
    <a href={`#${MAIN_ID}`} className={classes.skipLink}>
      Skip to main content
    </a>
  );
}
