/**
 * The bounds on decoding an uploaded file (docs/decisions/021-decoding-uploads-in-a-child.md).
 * Every decode of uploaded content (a thumbnail, a HEIC conversion) runs in a child process that
 * is killed past these, and the file then simply has no preview.
 */
export interface DecoderLimits {
  /** A decode running longer is killed. */
  timeoutMs: number;
  /** A decoder process whose resident memory passes this is killed (Linux: /proc; else the heap cap). */
  maxRssBytes: number;
  /** The decoder's V8 heap cap (--max-old-space-size), in MB. */
  maxHeapMb: number;
  /** Images with more pixels are not decoded (sharp's limitInputPixels; pdf.js's maxImageSize). */
  maxPixels: number;
  /** A PDF whose compressed streams inflate to more than this, in total, is not rendered. */
  pdfMaxDecodedBytes: number;
  /** PDFs larger than this are not rendered (pdf.js holds the whole file). */
  pdfMaxFileBytes: number;
}

export const DECODER_LIMITS: DecoderLimits = {
  timeoutMs: 15_000,
  maxRssBytes: 512 * 1024 * 1024,
  maxHeapMb: 192,
  // a 48-megapixel phone photo (8000×6000) still gets a preview
  maxPixels: 50_000_000,
  pdfMaxDecodedBytes: 64 * 1024 * 1024,
  pdfMaxFileBytes: 10 * 1024 * 1024,
};

/** How many decoders may run at once in one server process (the rest wait their turn). */
export const DECODER_CONCURRENCY = 1;

/** Longest side of a thumbnail, in pixels. */
export const THUMBNAIL_SIZE = 320;

/** One piece of work for a decoder process: it reads `input` and writes `output`. */
export type DecoderTask =
  | { op: 'thumbnail'; kind: 'pdf' | 'image'; input: string; output: string }
  | { op: 'heic-to-jpeg'; input: string; output: string };

/** The one message the server sends a decoder process. */
export interface DecoderRequest {
  task: DecoderTask;
  limits: DecoderLimits;
}

/** What the decoder process answers (over IPC). */
export type DecoderReply =
  | { ok: true; peakRssBytes: number }
  | { ok: false; reason: string; peakRssBytes: number };

/** What a decode came to, as the server sees it. */
export type DecoderOutcome =
  | { status: 'done'; peakRssBytes: number }
  | { status: 'refused'; reason: string; peakRssBytes: number }
  | { status: 'killed'; reason: 'timeout' | 'memory' | 'crashed'; peakRssBytes: number };
