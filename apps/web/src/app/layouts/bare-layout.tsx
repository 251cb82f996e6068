import { Box, Center } from '@mantine/core';
import { Outlet } from 'react-router';
import { MAIN_ID } from './skip-link';

/**
 * The frame of the bootstrap step: nothing but the content, centred. A signed-in user who
 * reloads a page passes through it, and must not see the public sign-in frame on the way.
 */
export default function BareLayout() {
  return (
    <Center mih="100dvh" p="md" component="main" id={MAIN_ID} tabIndex={-1}>
      <Box maw={420} w="100%">
        <Outlet />
      </Box>
    </Center>
  );
}
