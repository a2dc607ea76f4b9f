import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../src/infra/tools';

export interface ComposeService {
  command: string[];
  environment: Record<string, string>;
}

/**
 * A service of docker-compose.yml as compose runs it with none of its variables set in the shell:
 * `${VAR:-default}` is the default, `${VAR}` empty, and `${VAR:?message}` refuses, as compose does.
 */
export function composeService(name: string): ComposeService {
  const compose = parse(readFileSync(path.join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, { command?: string[]; environment?: Record<string, string | number | boolean> }>;
  };
  const service = compose.services[name];
  if (!service?.command) throw new Error(`docker-compose.yml: service ${name} has no command`);
  const environment = Object.fromEntries(Object.entries(service.environment ?? {}).map(([key, value]) => [key, interpolate(String(value))]));
  return { command: service.command, environment };
}

function interpolate(value: string): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g, (_all, variable: string, operator?: string, word?: string) => {
    if (operator?.endsWith('?')) throw new Error(`docker-compose.yml: ${variable} is required: ${word}`);
    return operator ? (word ?? '') : '';
  });
}
