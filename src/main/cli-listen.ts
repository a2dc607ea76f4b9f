/** `cli listen`: prints or forwards each delivery to a temporary endpoint (docs/receiving.md#cli-listen). */
import { once } from 'node:events';
import { createServer, Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { parseArgs } from 'node:util';
import type { Client } from '@temporalio/client';
import type { Db } from 'mongodb';
import getRawBody from 'raw-body';
import { request } from 'undici';
import { verifySync, WebhookVerificationError } from '../../receivers/typescript/src/node';
import { Config, loadConfig, mongoUriOf, temporalAddressOf } from '../config/config';
import { systemClock } from '../domain/clock';
import { DomainError, isDomainError, ValidationError } from '../domain/errors';
import { isLocalListenerUrl, LOCAL_LISTENER_ADDRESS, LOCAL_LISTENER_HOST, lookupLocalListener } from '../domain/webhooks/local-listener';
import { createSecretBox } from '../domain/webhooks/secret-box';
import { isPortOpen } from '../infra/embedded-servers';
import { ensureLocalListenerCa, issueListenerCertificate, type Pem } from '../infra/local-listener-ca';
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
  const forward = values['forward-to'];
  if (forward !== undefined && !URL.canParse(forward)) throw new ValidationError(`--forward-to must be an absolute http:// or https:// URL. ${USAGE}`);
  const forwardTo = forward === undefined ? undefined : new URL(forward);
  if (forwardTo && forwardTo.protocol !== 'http:' && forwardTo.protocol !== 'https:') throw new ValidationError(`--forward-to must be an http:// or https:// URL. ${USAGE}`);
  const config = loadConfig();
  if (!config.delivery.localListener) {
    throw new Error(
      'cli listen works only where the platform trusts its local listener: the embedded platform of `npm start`, ' +
        'or a platform (and this command) run with DELIVERY_LOCAL_LISTENER=true. See docs/receiving.md#cli-listen.',
    );
  }

  // The running platform's store: deliveries need the platform itself, so nothing is started here.
  if (!config.mongo.uri && !(await isPortOpen(config.mongo.embeddedPort))) {
    throw new Error(`The platform is not running (nothing on 127.0.0.1:${config.mongo.embeddedPort}): start it with \`npm start\` first, with the same DATA_DIR.`);
  }
  const store = await connectMongo(mongoUriOf(config), config.mongo.dbName);
  const temporal = await connectTemporal(temporalAddressOf(config), config.temporal.namespace, { native: false, timeoutMs: 10_000 });
  try {
    if (!(await new Accounts(store.db).findById(accountId))) throw new DomainError('not_found', `Account ${accountId} not found.`);
    const endpoints = await listenerEndpointService(config, store.db, temporal.client);
    await removeAbandoned(endpoints, accountId, out);

    const ca = await ensureLocalListenerCa(config.dataDir);
    let secret = '';
    const receiver = await startListenReceiver({ tls: await issueListenerCertificate(ca), secret: () => secret, forwardTo, report: out });
    // The first SIGINT or SIGTERM; later ones (a terminal sends Ctrl-C to npm and to us) are absorbed.
    const stopped = new Promise<string>((resolve) => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => resolve(signal));
    });
    const endpoint = await endpoints.create(accountId, { url: `https://${LOCAL_LISTENER_HOST}:${receiver.port}/`, events, description: ownerDescription(process.pid) }).catch(async (err: unknown) => {
      await receiver.close();
      throw err;
    });
    secret = endpoint.secret;
    out(`Listening for account ${accountId}'s events ${endpoint.events.join(', ')} on ${endpoint.url}`);
    out(`  Endpoint     ${endpoint.id} (temporary: removed when this listener stops)`);
    out(`  Secret       ${endpoint.secret}`);
    if (forwardTo) out(`  Forwarding   to ${forwardTo.href}; the platform gets your app's answer (502 when it cannot be reached)`);
    await new Promise((resolve) => setTimeout(resolve, ROUTING_SETTLES_MS));
    out('Ready: each delivery is printed as it arrives. Ctrl-C stops and removes the endpoint.');

    const signal = await stopped;
    out(`${signal}: removing endpoint ${endpoint.id}...`);
    // Deleted first, so that no new attempt is made to a closed port. Deleted already (by hand, or by its tenant's delete): stopped all the same.
    const removed = await endpoints.delete(accountId, endpoint.id).then(
      () => true,
      (err: unknown) => {
        if (isDomainError(err, 'not_found')) return false;
        throw err;
      },
    );
    await receiver.close();
    out(removed ? `Stopped. Endpoint ${endpoint.id} removed.` : `Stopped. Endpoint ${endpoint.id} had been deleted already.`);
  } finally {
    await temporal.close();
    await store.client.close();
  }
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
    tenantCaps: config.tenantCaps,
    autoDisableAfterMs: config.endpointAutoDisableAfterMs,
    dnsLookup: lookupLocalListener,
    clock: systemClock,
  });
}

async function removeAbandoned(endpoints: EndpointService, accountId: string, out: (line: string) => void): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await endpoints.list(accountId, 100, cursor);
    for (const endpoint of page.data) {
      // A description is free text anyone (a tenant's portal too) may write: only a listener's own address marks its endpoint.
      const owner = OWNER.exec(endpoint.description);
      const listenerMade = endpoint.url !== null && isLocalListenerUrl(new URL(endpoint.url)) && endpoint.tenant_id === null;
      if (!owner || !listenerMade || owner[1] !== os.hostname() || isProcessRunning(Number(owner[2]))) continue;
      await endpoints.delete(accountId, endpoint.id).catch(() => undefined);
      out(`Removed endpoint ${endpoint.id} (${endpoint.url}), left by a listener that is no longer running (pid ${owner[2]}).`);
    }
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
}

const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** Each delivery verified with receivers/typescript as an app would; `secret` is known once the endpoint, which needs the port, is registered. */
async function startListenReceiver(options: { tls: Pem; secret: () => string; forwardTo?: URL; report: (line: string) => void }) {
  const attempts = new Map<string, number>();
  const server: Server = createServer({ key: options.tls.key, cert: options.tls.cert }, (req, res) => {
    void (async () => {
      const body = await getRawBody(req, { limit: MAX_BODY_BYTES });
      const header = (name: string) => {
        const value = req.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      const eventId = header('webhook-id') ?? header('x-webhook-id') ?? '?';
      const attempt = (attempts.get(eventId) ?? 0) + 1;
      attempts.set(eventId, attempt);
      let signature: string;
      let verified = false;
      try {
        verifySync(body, req.headers, { secrets: [options.secret()] });
        verified = true;
        signature = 'signature verified';
      } catch (err) {
        if (!(err instanceof WebhookVerificationError)) throw err;
        signature = `signature NOT verified (${err.code}: ${err.message})`;
      }
      const line = `${new Date().toISOString().slice(11, 19)}  event ${eventId}  ${header('x-webhook-type') ?? '?'}  attempt ${attempt}  ${signature}`;
      if (options.forwardTo) {
        const answer = await forwardDelivery(options.forwardTo, req.rawHeaders, body);
        options.report(`${line}  → ${answer.status}${answer.error ? ` (${answer.error})` : ` from ${options.forwardTo.href}`}`);
        res.writeHead(answer.status, answer.contentType ? { 'Content-Type': answer.contentType } : {});
        res.end(answer.body);
        return;
      }
      options.report(`${line}  → ${verified ? 200 : 401}`);
      res.writeHead(verified ? 200 : 401, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(verified ? { received: true } : { error: signature }));
    })().catch((err: unknown) => {
      options.report(`could not handle a request: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) res.writeHead(400);
      res.end();
    });
  });
  server.listen(0, LOCAL_LISTENER_ADDRESS);
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Beyond this the platform has given up on the attempt anyway (its time-out is 30 s). */
const FORWARD_TIMEOUT_MS = 29_000;
/** The platform keeps 4 KiB of a response; a little more is plenty to relay. */
const MAX_RELAYED_BYTES = 64 * 1024;
/** Hop-by-hop headers (RFC 9110 §7.6.1) and the host, which belong to one connection, not to the delivery. */
const NOT_FORWARDED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-connection', 'expect']);

/** Exact bytes and headers (order and case kept), the app's answer passed back as it is; an unreachable app is a 502, so the platform retries. */
async function forwardDelivery(to: URL, rawHeaders: string[], body: Buffer) {
  const headers: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (!NOT_FORWARDED.has((rawHeaders[i] as string).toLowerCase())) headers.push(rawHeaders[i] as string, rawHeaders[i + 1] as string);
  }
  try {
    const response = await request(to, { method: 'POST', headers, body, signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      if (size < MAX_RELAYED_BYTES) chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    const contentType = response.headers['content-type'];
    return { status: response.statusCode, contentType: typeof contentType === 'string' ? contentType : undefined, body: Buffer.concat(chunks).subarray(0, MAX_RELAYED_BYTES) };
  } catch (err) {
    const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string } };
    const why = e.name === 'TimeoutError' ? `no answer within ${FORWARD_TIMEOUT_MS / 1000} s` : (e.code ?? e.cause?.code ?? e.message ?? String(err));
    const error = `${to.href} unreachable: ${why}`;
    return { status: 502, contentType: 'application/json', body: Buffer.from(JSON.stringify({ error: `cli listen: ${error}` })), error };
  }
}
