import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  activityConfigOut,
  caseActivityListItemOut,
  caseCreate,
  caseListItemOut,
  checkSessionOut,
  idSchema,
  pageOut,
  processCreate,
  processDetails,
  profileOut,
  registrationFields,
  subjectCreate,
  userCreate,
} from '../index.js';

const messages = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? {} : z.flattenError(r.error).fieldErrors;
};

describe('request contracts', () => {
  it("use the spec's name and email rules and messages (point 5)", () => {
    expect(
      messages(registrationFields, {
        customer_name: 'Co',
        first_name: 'J0hn',
        last_name: 'L'.repeat(51),
        email: 'a@b.museum',
      }),
    ).toEqual({
      first_name: ['Contains invalid characters'],
      last_name: ['Max 50 characters'],
      email: ['Invalid email'],
    });
    expect(
      messages(userCreate, { email: 'a@b.com', first_name: 'Ann', last_name: "O'Neil" }),
    ).toEqual({});
    expect(messages(subjectCreate, { first_name: '', last_name: 'Lee', email: 'x' })).toEqual({
      first_name: ['Required'],
      email: ['Invalid email'],
    });
  });

  it('give a process description the same limit on the form and on the server', () => {
    const long = 'd'.repeat(2001);
    expect(messages(processDetails, { name: 'P', description: long, is_active: true })).toEqual({
      description: ['Max 2000 characters'],
    });
    expect(messages(processCreate, { name: 'P', description: long })).toEqual({
      description: ['Max 2000 characters'],
    });
    expect(processCreate.parse({ name: ' P ' })).toMatchObject({ name: 'P', reminder_days: 7 });
  });

  it('read ids with the messages of the API', () => {
    expect(messages(caseCreate, {})).toEqual({ process: ['Required'] });
    expect(messages(caseCreate, { process: 'x' })).toEqual({
      process: ['A valid integer is required.'],
    });
    expect(idSchema.safeParse(0).error?.issues[0]?.message).toBe(
      'Invalid pk - object does not exist.',
    );
  });
});

describe('response contracts', () => {
  it('are strict: a field more or less fails', () => {
    const row = {
      id: 1,
      state: 'open',
      state_display: 'Open',
      process: { id: 2, name: 'Care' },
      subject: { id: 3, first_name: 'Ann', last_name: 'Lee', email: 'a@b.com' },
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      completed_at: null,
      decision: null,
      is_archived: false,
      flagged: false,
      customer: 1,
    };
    const page = pageOut(caseListItemOut);
    expect(page.safeParse({ count: 1, next: null, previous: null, results: [row] }).success).toBe(
      true,
    );
    expect(caseListItemOut.safeParse({ ...row, extra: 1 }).success).toBe(false);
    const { flagged: _, ...missing } = row;
    expect(caseListItemOut.safeParse(missing).success).toBe(false);
  });

  it('take an activity configuration as stored, an object', () => {
    expect(activityConfigOut.safeParse({ purpose: 'employment' }).success).toBe(true);
    expect(activityConfigOut.safeParse([]).success).toBe(false);
    expect(activityConfigOut.safeParse(null).success).toBe(false);
    expect(
      caseActivityListItemOut.shape.case.shape.case_activities.safeParse(undefined).success,
    ).toBe(false);
  });

  it('tell the two kinds of profile apart, and the session answer', () => {
    expect(profileOut.safeParse({ user_type: 'SubjectUser' }).success).toBe(false);
    expect(
      checkSessionOut.safeParse({
        authenticated: false,
        csrf_token: 't',
        user_type: null,
        session_customer: null,
        active_flags: 0,
        maintenance_window: null,
      }).success,
    ).toBe(true);
  });
});
