import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { ErrorSummary, focusField } from './error-summary';
import { flattenServerErrors, issuesByField, summaryOfErrors } from './form-errors';

function Harness() {
  const [attempt, setAttempt] = useState(1);
  return (
    <>
      <ErrorSummary
        errors={[
          { field: 'ref', message: 'Required', label: 'Reference' },
          { field: 'doc', message: 'Required', summary: 'Choose a document' },
          { message: 'Not saved' },
        ]}
        focusKey={attempt}
      />
      <input id="ref" aria-label="Reference" />
      <input name="doc" aria-label="Document" />
      <button type="button" onClick={() => setAttempt((n) => n + 1)}>
        Try again
      </button>
    </>
  );
}

describe('ErrorSummary', () => {
  it('shows nothing without errors', () => {
    renderWithProviders(<ErrorSummary errors={[]} />);
    expect(screen.queryByTestId('error-summary')).toBeNull();
  });

  it("says 'There is a problem', links each error to its field and takes the focus again on each attempt", () => {
    renderWithProviders(<Harness />);
    const summary = screen.getByRole('alert');
    expect(summary).toHaveAccessibleName('There is a problem');
    expect(summary).toHaveFocus();
    fireEvent.click(screen.getByRole('link', { name: 'Reference: Required' }));
    expect(screen.getByLabelText('Reference')).toHaveFocus();
    fireEvent.click(screen.getByRole('link', { name: 'Choose a document' }));
    expect(screen.getByLabelText('Document')).toHaveFocus();
    // A form-wide error is text, not a link.
    expect(screen.getByText('Not saved').closest('a')).toBeNull();
    // The next failed attempt (a new focusKey) takes the focus back from the field.
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByTestId('error-summary')).toHaveFocus();
  });

  it('focuses the first input inside a wrapper given by id or data-field', () => {
    render(
      <>
        <div id="dob">
          <select aria-label="Year" />
        </div>
        <div data-field="to_date">
          <select aria-label="To year" />
        </div>
      </>,
    );
    focusField('dob');
    expect(screen.getByLabelText('Year')).toHaveFocus();
    focusField('to_date');
    expect(screen.getByLabelText('To year')).toHaveFocus();
  });
});

describe('error shapes', () => {
  it("flattens a 400's nested field errors to dotted paths", () => {
    expect(
      flattenServerErrors({
        name: ['Required'],
        detail: 'Not saved',
        addresses: [{}, { postcode: ['Invalid postcode'] }],
        contact: { email: ['Enter a valid email'] },
        count: 3,
      }),
    ).toEqual({
      name: ['Required'],
      detail: ['Not saved'],
      'addresses.1.postcode': ['Invalid postcode'],
      'contact.email': ['Enter a valid email'],
    });
  });

  it('lists a react-hook-form error tree in order, labelled where a label is known', () => {
    expect(
      summaryOfErrors(
        {
          name: { type: 'server', message: 'Required' },
          lines: { 1: { town: { type: 'too_small', message: 'Too short' } } },
        },
        { name: 'Name' },
      ),
    ).toEqual([
      { field: 'name', message: 'Required', label: 'Name' },
      { field: 'lines.1.town', message: 'Too short' },
    ]);
  });

  it("keeps the first Zod issue's message per field", () => {
    expect(
      issuesByField([
        { path: ['a'], message: 'First' },
        { path: ['a'], message: 'Second' },
        { path: ['b', 0], message: 'Nested' },
        { path: [], message: 'Form' },
      ]),
    ).toEqual({ a: 'First', 'b.0': 'Nested' });
  });
});
