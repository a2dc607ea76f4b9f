import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/infra/tools';
import { spawnShell } from './shell-process';
import type { SdkSuiteEnv } from './sdk-platform';

export const SDK_READMES = { typescript: 'sdks/typescript/README.md', python: 'sdks/python/README.md', go: 'sdks/go/README.md' } as const;
export type SdkLanguage = keyof typeof SDK_READMES;

/** The README's "Quick start" section (to the next `## ` heading). */
export async function quickStartSection(language: SdkLanguage): Promise<string> {
  const readme = await readFile(path.join(PROJECT_ROOT, SDK_READMES[language]), 'utf8');
  const start = readme.indexOf('## Quick start');
  if (start < 0) throw new Error(`${SDK_READMES[language]} has no "## Quick start" section`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The section's fenced blocks of `lang`, in order. */
export const codeBlocks = (section: string, lang: string) => [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);

/**
 * The quick start's shell commands as a person types them, from where the README says to: the `cli listen` line is
 * left out (it runs in another terminal, and the README tour's test follows it), the key placeholder is the key.
 */
export async function quickStartScript(language: SdkLanguage, key: string): Promise<string> {
  const section = await quickStartSection(language);
  const [block] = codeBlocks(section, 'sh');
  const lines = block.split('\n').filter((line) => !/npm run --silent cli -- listen\b/.test(line));
  const script = lines.join('\n').replaceAll('svc_live_weh_...', key);
  return /from this folder/.test(section) ? `cd ${path.dirname(SDK_READMES[language])}\n${script}` : script;
}

/**
 * Runs the quick start against the suite's platform, told only `PLATFORM_URL` and `KEY` as the README says.
 * `setup` comes first (what the README takes as given, e.g. a Python environment to install into). Resolves with
 * everything it printed; rejects when it fails.
 */
export async function runQuickStart(language: SdkLanguage, env: SdkSuiteEnv, setup = ''): Promise<string> {
  const script = `set -e\n${setup}\n${await quickStartScript(language, env.PLATFORM_API_KEY)}`;
  const shell = spawnShell(script, { ...process.env, PLATFORM_URL: env.PLATFORM_URL, KEY: env.PLATFORM_API_KEY });
  const code = await shell.exited;
  if (code !== 0) throw new Error(`the ${language} quick start exited ${code}:\n${script}\n---\n${shell.output()}`);
  return shell.output();
}

/** A fresh Python virtual environment, activated: where the Python quick start's `pip install` goes. */
export async function freshPythonEnvironment(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sdk-quick-start-venv-'));
  return `python3 -m venv ${dir}\n. ${dir}/bin/activate`;
}
