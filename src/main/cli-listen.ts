/** `cli listen`: prints or forwards each delivery to a temporary endpoint (docs/receiving.md#cli-listen). */
import os from 'node:os';
import { parseArgs } from 'node:util';
import type { Client } from '@temporalio/client';
import type { Db } from 'mongodb';
import { Config, loadConfig, mongoUriOf, temporalAddressOf } from '../config/config';
import { systemClock } from '../domain/clock';
import { DomainError, ValidationError } from '../domain/errors';
import { LOCAL_LISTENER_HOST, lookupLocalListener } from '../domain/webhooks/local-listener';
import { createSecretBox } from '../domain/webhooks/secret-box';
import { isPortOpen } from '../infra/embedded-servers';
import { ensureLocalListenerCa, issueListenerCertificate } from '../infra/local-listener-ca';
import { isProcessRunning } from '../infra/process-liveness';
import { loadOrCreateSecretsKey } from '../infra/secrets-key';
import { Accounts } from '../persistence/accounts';
import { FOLLOW_MAX_LAG_MS } from '../persistence/cache-invalidation-follower';
import { Deliveries } from '../persistence/deliveries';
import { EndpointHealthLog } from '../persistence/endpoint-health-log';
import { Endpoints } from '../persistence/endpoints';
import { connectMongo } from '../persistence/mongo';
import { ENDPOINTS_CACHE_TTL_MS } from '../services/account-endpoints-cache';
import { EndpointService } from '../services/endpoint-service';
import { connectTemporal } from '../temporal/client';
import { DeliveryScheduler } from '../temporal/delivery-scheduler';
import { ResumeScheduler } from '../temporal/resume-scheduler';
import { startListenReceiver } from './listen-receiver';

const USAGE = "usage: cli listen --account ID [--events 'order.*,invoice.paid'] [--forward-to http://localhost:4000/webhooks]";

/** Marks a listener's endpoint, for people and for later listeners on this host, which remove dead ones. */
const ownerDescription = (pid: number) => `cli listen on ${os.hostname()} (pid ${pid}): temporary, removed when that listener stops; delete it if it is no longer running`;
const OWNER = /^cli listen on (\S+) \(pid (\d+)\)/;

/** After this, every API process routes events to a new endpoint (its endpoint cache follows the change log, or expires). */
const ROUTING_SETTLES_MS = Math.max(FOLLOW_MAX_LAG_MS, ENDPOINTS_CACHE_TTL_MS) + 200;

export async function listen(args: string[], out: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Promise<void> {
  const { values } = parseArgs({ args, options: { account: { type: 'string' }, events: { type: 'string' }, 'forward-to': { type: 'string' } }, strict: true });
  const accountId = values.account;
  if (!accountId) throw new ValidationError(`--account is required. ${USAGE}`);
  const events = values.events?.split(',').map((p) => p.trim());
  const forwardTo = values['forward-to'] === undefined ? undefined : forwardUrl(values['forward-to']);
  const config = loadConfig();
  if (!config.delivery.localListener) {
    throw new Error(
      'cli listen works only where the platform trusts its local listener: the embedded platform of `npm start`, ' +
        'or a platform (and this command) run with DELIVERY_LOCAL_LISTENER=true. See docs/receiving.md#cli-listen.',
    );
  }

  const store = await connectStore(config);
  const temporal = await connectTemporal(temporalAddressOf(config), config.temporal.namespace, { native: false, timeoutMs: 10_000 });
  try {
    if (!(await new Accounts(store.db).findById(accountId))) throw new DomainError('not_found', `Account ${accountId} not found.`);
    const endpoints = await listenerEndpointService(config, store.db, temporal.client);
    for (const line of await removeAbandoned(endpoints, accountId)) out(line);

    const ca = await ensureLocalListenerCa(config.dataDir);
    let secret = '';
    const receiver = await startListenReceiver({ tls: await issueListenerCertificate(ca), secret: () => secret, forwardTo, report: out });
    const stopped = stopSignal();
    let endpoint;
    try {
      endpoint = await endpoints.create(accountId, { url: `https://${LOCAL_LISTENER_HOST}:${receiver.port}/`, events, description: ownerDescription(process.pid) });
    } catch (err) {
      await receiver.close();
      throw err;
    }
    secret = endpoint.secret;
    out(`Listening for account ${accountId}'s events ${endpoint.events.join(', ')} on ${endpoint.url}`);
    out(`  Endpoint     ${endpoint.id} (temporary: removed when this listener stops)`);
    out(`  Secret       ${endpoint.secret}`);
    if (forwardTo) out(`  Forwarding   to ${forwardTo.href}; the platform gets your app's answer (502 when it cannot be reached)`);
    await new Promise((resolve) => setTimeout(resolve, ROUTING_SETTLES_MS));
    out('Ready: each delivery is printed as it arrives. Ctrl-C stops and removes the endpoint.');

    const signal = await stopped;
    out(`${signal}: removing endpoint ${endpoint.id}...`);
    // Deleted first, so that no new attempt is made to a closed port.
    await endpoints.delete(accountId, endpoint.id);
    await receiver.close();
    out(`Stopped. Endpoint ${endpoint.id} removed.`);
  } finally {
    await temporal.close();
    await store.client.close();
  }
}

function forwardUrl(raw: string): URL {
  if (!URL.canParse(raw)) throw new ValidationError(`--forward-to must be an absolute http:// or https:// URL. ${USAGE}`);
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError(`--forward-to must be an http:// or https:// URL. ${USAGE}`);
  return url;
}

/** The running platform's store: deliveries need the platform itself, so nothing is started here. */
async function connectStore(config: Config) {
  if (!config.mongo.uri && !(await isPortOpen('127.0.0.1', config.mongo.embeddedPort))) {
    throw new Error(`The platform is not running (nothing on 127.0.0.1:${config.mongo.embeddedPort}): start it with \`npm start\` first, with the same DATA_DIR.`);
  }
  return connectMongo(mongoUriOf(config), config.mongo.dbName);
}

/** May register this loopback URL, which the senders refuse unless the local-listener flag is on. */
export async function listenerEndpointService(config: Config, db: Db, temporal: Client): Promise<EndpointService> {
  return new EndpointService({
    endpoints: new Endpoints(db),
    deliveries: new Deliveries(db),
    health: new EndpointHealthLog(db),
    scheduler: new DeliveryScheduler(temporal, config.temporal.taskQueue),
    resumer: new ResumeScheduler(temporal, config.temporal.taskQueue),
    secretBox: createSecretBox(await loadOrCreateSecretsKey(config.secretsEncryptionKey, config.dataDir)),
    allowPrivateNetworks: true,
    maxEndpointsPerAccount: config.maxEndpointsPerAccount,
    autoDisableAfterMs: config.endpointAutoDisableAfterMs,
    dnsLookup: lookupLocalListener,
    clock: systemClock,
  });
}

async function removeAbandoned(endpoints: EndpointService, accountId: string): Promise<string[]> {
  const lines: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await endpoints.list(accountId, 100, cursor);
    for (const endpoint of page.data) {
      const owner = OWNER.exec(endpoint.description);
      if (!owner || owner[1] !== os.hostname() || isProcessRunning(Number(owner[2]))) continue;
      await endpoints.delete(accountId, endpoint.id).catch(() => undefined);
      lines.push(`Removed endpoint ${endpoint.id} (${endpoint.url}), left by a listener that is no longer running (pid ${owner[2]}).`);
    }
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return lines;
}

/** Resolves on the first SIGINT or SIGTERM; later ones (a terminal sends Ctrl-C to npm and to us) are absorbed. */
function stopSignal(): Promise<string> {
  return new Promise((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => resolve(signal));
  });
}
