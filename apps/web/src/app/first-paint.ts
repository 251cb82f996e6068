/**
 * Subject routes that paint with the frame's CSS alone (styles-frame.ts): every other subject
 * route loads the rest of the signed-in CSS (styles-app.ts) with its screen (router.tsx) and
 * preloads it on a first visit (vite.config.ts, route preloads). Issue 28: the subject's
 * dashboard is the first thing a subject sees on a phone.
 */
export const FRAME_STYLED_ROUTES: readonly string[] = ['s:dashboard'];
