import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { LinkifiedText, splitLinks } from './linkify';

const join = (text: string) =>
  splitLinks(text)
    .map((p) => p.value)
    .join('');

describe('splitLinks', () => {
  it('finds http and https addresses and leaves the text around them', () => {
    const text =
      'To choose a new password, open:\nhttps://app.test/auth/password-reset-confirm?token=a%2Bb\n\nOr http://x.test/y.';
    expect(splitLinks(text)).toEqual([
      { kind: 'text', value: 'To choose a new password, open:\n' },
      { kind: 'link', value: 'https://app.test/auth/password-reset-confirm?token=a%2Bb' },
      { kind: 'text', value: '\n\nOr ' },
      { kind: 'link', value: 'http://x.test/y' },
      { kind: 'text', value: '.' },
    ]);
    expect(join(text)).toBe(text);
  });

  it('keeps closing punctuation and other schemes out of links', () => {
    const text = '(see https://a.test/b), javascript:alert(1) ftp://c.test and https:// alone';
    const links = splitLinks(text).filter((p) => p.kind === 'link');
    expect(links).toEqual([{ kind: 'link', value: 'https://a.test/b' }]);
    expect(join(text)).toBe(text);
  });

  it('gives plain text without addresses back as one part, and nothing for empty text', () => {
    expect(splitLinks('Hello\nthere')).toEqual([{ kind: 'text', value: 'Hello\nthere' }]);
    expect(splitLinks('')).toEqual([]);
  });
});

describe('LinkifiedText', () => {
  it('renders the addresses as links and the rest as text', () => {
    renderWithProviders(
      <pre data-testid="body">
        <LinkifiedText text={'Open https://a.test/x?t=1 now.\nThanks'} />
      </pre>,
    );
    const link = screen.getByRole('link', { name: 'https://a.test/x?t=1' });
    expect(link.getAttribute('href')).toBe('https://a.test/x?t=1');
    expect(screen.getByTestId('body').textContent).toBe('Open https://a.test/x?t=1 now.\nThanks');
  });
});
