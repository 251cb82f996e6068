// The component CSS a subject's frame and dashboard paint with, beyond the entry's (styles.ts).
// The rest of the signed-in CSS (styles-app.ts) comes after the first paint, with the header's
// menus, and before any other subject screen (router.tsx): issue 28, first loads on a phone.
// The build keeps these in a chunk of their own (vite.config.ts reads this list).
import '@mantine/core/styles/Avatar.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Burger.css';
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/Pagination.css';
import '@mantine/core/styles/Progress.css';
import '@mantine/core/styles/Skeleton.css';
