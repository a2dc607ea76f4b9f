/**
 * `npm run vectors`: writes receivers/test-vectors.json, the cases every receiver library's tests
 * run. Made by the platform's own code (delivery-request.ts builds the request, signature.ts
 * signs it), so the libraries are checked against what the platform really sends;
 * test/unit/receivers/test-vectors.test.ts fails when the file is not what this makes now.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildTestVectors } from '../test/support/test-vectors';

export const VECTORS_FILE = path.join(__dirname, '..', 'receivers', 'test-vectors.json');

if (require.main === module) {
  writeFileSync(VECTORS_FILE, `${JSON.stringify(buildTestVectors(), null, 2)}\n`);
  process.stdout.write(`wrote ${VECTORS_FILE}\n`);
}
