import { Fragment } from 'react';

/**
 * An email address that wraps only at its natural joints: before the '@' and before each dot
 * (never in the middle of a name), and anywhere only when a single part is wider than its box.
 */
export function Email({ address }: { address: string }) {
  const parts = address.split(/(?=[@.])/);
  return (
    <span style={{ overflowWrap: 'anywhere' }} title={address}>
      {parts.map((part, i) => (
        // The parts of one address never reorder: their index is a stable key.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
