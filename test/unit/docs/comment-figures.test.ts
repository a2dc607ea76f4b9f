import fs from 'node:fs';
import path from 'node:path';

/**
 * Code comments say why, not what a benchmark once measured: a figure goes stale with the next run, while BENCHMARKS.md
 * keeps each figure beside the code and machine it came from. These patterns catch a comment quoting a result; a
 * comment that names a limit or a setting in figures is left alone.
 */
const ROOT = path.resolve(__dirname, '..', '..', '..');

/** A measurement quoted as one, a before → after, a "from x to y", an "a/s against b/s", a "x beat y". */
const QUOTED_RESULT = [/\bmeasured\b[:,]?\s*[^.;]*\d/i, /\d[\d.,]*\s*(?:\/s|%|ms|s)?\s*(?:→|->)\s*\d/, /\bfrom \d[\d.,]* to \d[\d.,]*/, /\d\/s against \d/, /\b\d[\d.,]* beat \d/];

/** The flow-control and worker files whose comments explain tuning, where figures crept in. */
const FILES = ['src/services/ingest-admission.ts', 'activities/delivery-activities.ts', 'activities/attempt-places.ts', 'src/infra/tools.ts', 'src/temporal/worker.ts'];

/** Each comment's text (a `//` line or a block comment's line) with its line number. */
function commentLines(source: string): Array<{ line: number; text: string }> {
  const lines = source.split('\n');
  const out: Array<{ line: number; text: string }> = [];
  let inBlock = false;
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (inBlock || line.startsWith('/*')) {
      out.push({ line: i + 1, text: line });
      inBlock = !line.includes('*/');
      return;
    }
    const slashes = raw.indexOf('//');
    if (slashes >= 0 && !/['"`][^'"`]*\/\/[^'"`]*['"`]/.test(raw)) out.push({ line: i + 1, text: raw.slice(slashes) });
  });
  return out;
}

describe('comments do not quote benchmark figures', () => {
  it('finds a quoted figure in a sample comment, and none in plain figures of limits', () => {
    const quoted = ['// Throttling at once: 30 → 20 deliveries/s.', '/** at 150 ms goodput fell from 0.88 to 0.79 of capacity */', '// measured: 56/s against 49/s', '// (measured: 400 beat 100 on a burst)'];
    const plain = ['// At most 1,000 deliveries, 7 days back.', '/** The wait before the n-th look: 1, 2, 4, 8 min, then 15 min. */', '// 600 hold the receivers of 24 new events/s.'];
    const hits = (text: string) => QUOTED_RESULT.some((re) => re.test(commentLines(text)[0]?.text ?? ''));
    expect(quoted.filter((c) => !hits(c))).toEqual([]);
    expect(plain.filter(hits)).toEqual([]);
  });

  it.each(FILES)('%s', (file) => {
    const found = commentLines(fs.readFileSync(path.join(ROOT, file), 'utf8'))
      .filter((c) => QUOTED_RESULT.some((re) => re.test(c.text)))
      .map((c) => `${file}:${c.line}: ${c.text}`);
    expect(found).toEqual([]);
  });
});
