import { Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { currentBrand } from '../brands';

/** The brand's logo and name, linking home. */
export function BrandMark({ to = '/' }: { to?: string }) {
  const { Logo, name } = currentBrand;
  return (
    <Link to={to} style={{ textDecoration: 'none', color: 'inherit' }} aria-label={`${name} home`}>
      <Group gap={10} wrap="nowrap">
        <Logo size={30} />
        <Text fw={750} size="lg" style={{ letterSpacing: '-0.01em' }}>
          {name}
        </Text>
      </Group>
    </Link>
  );
}
