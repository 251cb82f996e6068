import { everyScreenIn, setUpBrowser } from './every-screen';

// Every screen of the three signed-in audiences in dark mode (the profile's): axe-core finds no
// WCAG 2.1 A/AA violation on any of them. The light pass and the other screen checks are
// every-screen.test.ts; a file of its own so that another worker shares the suite's longest work.

setUpBrowser();
everyScreenIn('dark');
