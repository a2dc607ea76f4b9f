/** Ops CLI (CONTRACT §1): one JSON object on stdout and exit 0, or `{"error": ...}` on stderr and a non-zero exit; MONGODB_URI, else DATA_DIR's store. */
import { parseArgs } from 'node:util';
import { Config, loadConfig, mongoUriOf } from '../config/config';
import { linkBaseFault } from '../config/link-base';
import { systemClock } from '../domain/clock';
import { DomainError, ValidationError } from '../domain/errors';
import { EmbeddedServer, isPortOpen, startFerretDb } from '../infra/embedded-servers';
import { provision } from '../infra/provision';
import { Accounts } from '../persistence/accounts';
import { ApiKeys } from '../persistence/api-keys';
import { DashboardInvites } from '../persistence/dashboard-invites';
import { DashboardSessions } from '../persistence/dashboard-sessions';
import { connectMongo } from '../persistence/mongo';
import { AccountService, AccountView } from '../services/account-service';
import { DashboardInviteService } from '../services/dashboard-invite-service';
import { httpStatusOf } from '../transport/http/error-status';

const COMMANDS = [
  'account create --email E [--tier T]',
  'account set-tier --account ID --tier T',
  'account invite --account ID [--base-url URL]',
  'key create --account ID --product P --label L',
  'key list --account ID',
  'key revoke --key ID',
  'listen --account ID [--events P,...] [--forward-to URL]',
];
const USAGE = `usage: cli ${COMMANDS.join(' | ')}`;

/** What `cli help` prints: still one JSON object on stdout, as every other command. */
const help = () => ({ usage: 'npm run --silent cli -- <command>', commands: COMMANDS, docs: 'docs/operating.md#ops-cli' });

async function main(argv: string[]): Promise<unknown> {
  const [noun, verb, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      tier: { type: 'string' },
      account: { type: 'string' },
      product: { type: 'string' },
      label: { type: 'string' },
      key: { type: 'string' },
      'base-url': { type: 'string' },
    },
    strict: true,
  });
  const need = (name: keyof typeof values): string => {
    const v = values[name];
    if (typeof v !== 'string' || v.length === 0) throw new ValidationError(`--${name} is required. ${USAGE}`);
    return v;
  };
  const commands: Record<string, Parameters<typeof withAccountService>[0]> = {
    'account create': async (service) => accountFields(await service.createAccount(need('email'), values.tier ?? 'free')),
    'account set-tier': async (service) => accountFields(await service.setTier(need('account'), need('tier'))),
    'account invite': (_service, invites, config) => invites.create(need('account'), webBaseUrl(values['base-url']) ?? config.publicUrl),
    'key create': async (service) => {
      const k = await service.createKey(need('account'), need('product'), need('label'));
      return { id: k.id, key: k.key, product: k.product, label: k.label, created_at: k.created_at };
    },
    'key list': async (service) => ({ data: await service.listKeys(need('account')) }),
    'key revoke': (service) => service.revokeKey(need('key')),
  };

  const command = `${noun ?? ''} ${verb ?? ''}`;
  if (noun === undefined) throw new ValidationError(`No command given. ${USAGE}`);
  if (!Object.hasOwn(commands, command)) throw new ValidationError(`Unknown command "${command.trim()}". ${USAGE}`);
  return withAccountService(commands[command]);
}

const accountFields = ({ id, email, tier }: AccountView) => ({ id, email, tier });

/** Checked before the invite is made: a link that cannot be followed is useless, and the invite would be live. */
function webBaseUrl(value: string | undefined): string | undefined {
  const fault = value === undefined ? undefined : linkBaseFault(value);
  if (fault) throw new ValidationError(`--base-url ${fault}. ${USAGE}`);
  return value;
}

async function withAccountService<T>(fn: (service: AccountService, invites: DashboardInviteService, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  let embedded: EmbeddedServer | undefined;
  if (!config.mongo.uri && !(await isPortOpen(config.mongo.embeddedPort))) {
    await provision({ need: { temporalCli: false, ferretDb: true, temporalTestServer: false }, log: () => undefined });
    embedded = await startFerretDb({ dataDir: config.dataDir, port: config.mongo.embeddedPort });
  }
  const { client, db } = await connectMongo(mongoUriOf(config), config.mongo.dbName);
  try {
    const accounts = new Accounts(db);
    const keys = new ApiKeys(db);
    const invites = new DashboardInvites(db);
    for (const repo of [accounts, keys, invites]) await repo.ensureIndexes();
    return await fn(new AccountService({ accounts, keys, clock: systemClock }), new DashboardInviteService({ accounts, invites, sessions: new DashboardSessions(db), clock: systemClock }), config);
  } finally {
    await client.close();
    await embedded?.stop();
  }
}

function fail(err: unknown): never {
  const body =
    err instanceof DomainError
      ? { error: err.message, code: err.code, ...err.data }
      : { error: err instanceof Error ? err.message : String(err), code: 'cli_error' };
  process.stderr.write(`${JSON.stringify(body)}\n`);
  process.exit(err instanceof DomainError && httpStatusOf(err) < 500 ? 2 : 1);
}

const argv = process.argv.slice(2);
if (argv[0] === 'help' || argv.some((arg) => arg === '--help' || arg === '-h')) {
  process.stdout.write(`${JSON.stringify(help())}\n`);
  process.exit(0);
} else if (argv[0] === 'listen') {
  // Loaded only here: the listener brings certificate generation along.
  import('./cli-listen').then(({ listen }) => listen(argv.slice(1))).then(() => process.exit(0), fail);
} else {
  main(argv).then((result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  }, fail);
}
