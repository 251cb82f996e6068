import { z } from 'zod';

/*
 * The knowledge test (spec point 2, Knowledge test panel): an online test platform invites the
 * subject (a link, in the portal and by email), and calls back, signed, when the test is done
 * with its overall pass or fail, the percentage, the completion time, the intro info the subject
 * gave, the categories and a link to the full results. A test taken on paper is recorded by
 * operations with the pass/fail radio (ops-forms.ts knowledgeTestResultSchema).
 */

const text = z.string().max(200).nullish();
const when = z.string().max(40).nullish();
const amount = z.number().min(0).max(100_000).nullish();

/** The intro info the subject filled in before the test. */
export const knowledgeTestIntroSchema = z.object({
  first_name: text,
  last_name: text,
  email: text,
  extra_info: text,
  extra_info2: text,
});
export type KnowledgeTestIntro = z.infer<typeof knowledgeTestIntroSchema>;

/** One category of the test's questions and how the subject did in it. */
export const knowledgeTestCategorySchema = z.object({
  name: z.string().max(200),
  percentage: z.number().min(0).max(100).nullish(),
  points_scored: amount,
  points_available: amount,
});
export type KnowledgeTestCategory = z.infer<typeof knowledgeTestCategorySchema>;

export const KNOWLEDGE_TEST_METHODS = ['online', 'paper'] as const;
export type KnowledgeTestMethod = (typeof KNOWLEDGE_TEST_METHODS)[number];

/** The knowledge test's result_data: filled by the invitation, then by the result. */
export const knowledgeTestResultDataSchema = z.object({
  /** The subject's link to the test (the portal's and the email's), while it waits. */
  test_url: z.string().max(500).nullish(),
  invited_at: when,
  /** Overall pass or fail; absent until the test is completed. */
  passed: z.boolean().nullish(),
  percentage: z.number().min(0).max(100).nullish(),
  points_scored: amount,
  points_available: amount,
  started_at: when,
  completed_at: when,
  /** How long the test took, in seconds (the completion time). */
  duration_seconds: z.number().int().min(0).max(604_800).nullish(),
  intro: knowledgeTestIntroSchema.nullish(),
  categories: z.array(knowledgeTestCategorySchema).max(100).nullish(),
  results_url: z.string().max(500).nullish(),
  method: z.enum(KNOWLEDGE_TEST_METHODS).nullish(),
  /** Who recorded a paper test's result (operations), else absent. */
  recorded_by: text,
});
export type KnowledgeTestResultData = z.infer<typeof knowledgeTestResultDataSchema>;

export const KNOWLEDGE_TEST_TEXTS = {
  notCompleted: 'This knowledge test has not yet been completed',
  pass: 'Pass',
  fail: 'Fail',
  takeTest: 'Take the knowledge test',
  fullResults: 'Full results',
  paper: 'Taken on paper',
} as const;

/** True once the test has an overall result (online or on paper). */
export function isKnowledgeTestCompleted(d: KnowledgeTestResultData): boolean {
  return typeof d.passed === 'boolean';
}

/** A completion time in words: '23 min 5 s', '1 h 2 min'; '' when unknown. */
export function formatTestDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || seconds < 0) return '';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  if (m > 0) return s > 0 ? `${m} min ${s} s` : `${m} min`;
  return `${s} s`;
}

/** What the subject sees of a knowledge test: no staff names, no points of other people. */
export function subjectKnowledgeTestData(d: KnowledgeTestResultData): KnowledgeTestResultData {
  const { recorded_by: _r, ...rest } = d;
  return rest;
}
