import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../../../src/infra/tools';
import { codeBlocks, quickStartSection, SDK_READMES, type SdkLanguage } from '../../support/sdk-quick-start';

const LANGUAGES = Object.keys(SDK_READMES) as SdkLanguage[];

/**
 * A platform is not always on port 3000 (`PORT`): each SDK quick start takes its address from `PLATFORM_URL` and says
 * so, and its commands are the ones that print what it shows. (test/integration/sdk-*.test.ts run them, on another port.)
 */
describe('the SDK READMEs\' quick starts', () => {
  it.each(LANGUAGES)('%s: names PLATFORM_URL, and port 3000 only as its default', async (language) => {
    const section = await quickStartSection(language);
    expect(section).toMatch(/`PLATFORM_URL`/);
    expect(section).toContain('export PLATFORM_URL=');
    for (const line of section.split('\n').filter((l) => l.includes(':3000'))) {
      expect(line).toMatch(/PLATFORM_URL|url == ""|^\s*url = "http:\/\/127\.0\.0\.1:3000"$/);
    }
  });

  it.each(LANGUAGES)('%s: `npm run cli` is always `npm run --silent cli` (its output is JSON only)', async (language) => {
    const readme = await readFile(path.join(PROJECT_ROOT, SDK_READMES[language]), 'utf8');
    expect(readme).not.toMatch(/npm run cli\b/);
  });

  it.each([
    ['typescript', 'ts', 'sdks/typescript/examples/send.ts'],
    ['go', 'go', 'sdks/go/cmd/send-event/main.go'],
  ] as const)('%s: the code shown is the program the quick start runs (%s)', async (language, lang, file) => {
    const code = (text: string) => text.split('\n').map((l) => l.replace(/(^|\s+)\/\/.*$/, '').trim()).filter((l) => l !== '');
    const [shown] = codeBlocks(await quickStartSection(language), lang);
    const run = code(await readFile(path.join(PROJECT_ROOT, file), 'utf8'));
    for (const line of code(shown)) expect(run).toContain(line);
  });
});
