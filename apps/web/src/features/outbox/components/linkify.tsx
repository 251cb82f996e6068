import { Anchor } from '@mantine/core';
import { Fragment } from 'react';

export type TextPart = { kind: 'text'; value: string } | { kind: 'link'; value: string };

const URL_PATTERN = /https?:\/\/[^\s<>"'`]+/g;
// Punctuation that ends a sentence rather than the address ("open https://x/y.").
const TRAILING = /[.,;:!?'")\]}>]+$/;

/** Splits plain text into text and http(s) link parts; joined again they give the text back. */
export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index;
    const url = match[0].replace(TRAILING, '');
    if (url.length <= 'https://'.length) continue;
    if (start > last) parts.push({ kind: 'text', value: text.slice(last, start) });
    parts.push({ kind: 'link', value: url });
    last = start + url.length;
  }
  if (last < text.length) parts.push({ kind: 'text', value: text.slice(last) });
  return parts;
}

/** Plain text with its http(s) addresses as links (underlined: not told apart by colour only). */
export function LinkifiedText({ text }: { text: string }) {
  let offset = 0;
  const parts = splitLinks(text).map((part) => {
    const at = offset;
    offset += part.value.length;
    return { ...part, at };
  });
  return (
    <>
      {parts.map((part) =>
        part.kind === 'link' ? (
          <Anchor
            key={part.at}
            href={part.value}
            underline="always"
            style={{ wordBreak: 'break-all' }}
          >
            {part.value}
          </Anchor>
        ) : (
          <Fragment key={part.at}>{part.value}</Fragment>
        ),
      )}
    </>
  );
}
