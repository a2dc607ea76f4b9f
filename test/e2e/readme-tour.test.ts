import { mkdtemp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort, isPortOpen } from '../../src/infra/embedded-servers';
import { PROJECT_ROOT } from '../../src/infra/tools';
import { spawnRole } from '../support/child-role';
import { eventually } from '../support/platform';
import { runShell, ShellProcess, spawnShell } from '../support/shell-process';

/**
 * The README's five-minute tour, command for command, against `npm start` on a fresh DATA_DIR (the
 * embedded platform, SSRF rules on): an account and a key, `cli listen`, an event with curl, a
 * signed delivery printed "verified", Ctrl-C removing the endpoint; then an app answering 500
 * behind `cli listen --forward-to`, its status reaching the platform, and the retry that succeeds
 * once the app is fixed, made at once by retry now; a cancel of the delivered event refused; a tenant's portal session.
 */

/** The tour's commands as the README shows them (shell blocks, comments dropped, `\` lines joined). */
const TOUR = [
  'npm run --silent cli -- account create --email you@example.com --tier team',
  'npm run --silent cli -- key create --account acct_... --product weh --label tour',
  'export KEY=svc_live_weh_...',
  "npm run --silent cli -- listen --account acct_... --events 'order.*'",
  `curl -s http://127.0.0.1:3000/api/v1/webhooks/events -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '{"type":"order.created","data":{"order_id":42}}'`,
  'curl -s http://127.0.0.1:3000/api/v1/webhooks/events/1 -H "Authorization: Bearer $KEY"',
  `node -e "require('http').createServer((req, res) => { res.statusCode = 500; res.end() }).listen(4000)" &`,
  "npm run --silent cli -- listen --account acct_... --events 'order.*' --forward-to http://localhost:4000/webhooks",
  'curl -s -X POST http://127.0.0.1:3000/api/v1/webhooks/events/2/deliveries/ep_.../retry-now -H "Authorization: Bearer $KEY"',
  'curl -s -X POST http://127.0.0.1:3000/api/v1/webhooks/events/2/deliveries/ep_.../cancel -H "Authorization: Bearer $KEY"',
  `curl -s http://127.0.0.1:3000/api/v1/webhooks/portal-sessions -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '{"tenant_id":"cus_42"}'`,
];

async function readmeTourCommands(): Promise<string[]> {
  const readme = await readFile(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  const tour = readme.slice(readme.indexOf('## A five-minute tour'), readme.indexOf('\n## ', readme.indexOf('## A five-minute tour') + 1));
  const commands: string[] = [];
  for (const block of tour.matchAll(/```sh\n([\s\S]*?)```/g)) {
    let pending = '';
    for (const line of block[1].split('\n')) {
      if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
      pending += (pending ? ' ' : '') + line.trim();
      if (pending.endsWith('\\')) pending = pending.slice(0, -1).trimEnd();
      else {
        commands.push(pending);
        pending = '';
      }
    }
  }
  return commands;
}

describe('the README tour', () => {
  it('runs as written: a signed delivery printed by cli listen, forwarding and retries, Ctrl-C removing the endpoint', async () => {
    expect(await readmeTourCommands()).toEqual(TOUR);

    const dataDir = await mkdtemp(path.join(process.env.TEST_DATA_DIR as string, 'tour-'));
    const ports = { api: await freePort(), temporal: await freePort(), ui: await freePort(), mongo: await freePort(), app: await freePort() };
    const env: Record<string, string | undefined> = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(ports.api),
      EMBEDDED_TEMPORAL_PORT: String(ports.temporal),
      EMBEDDED_TEMPORAL_UI_PORT: String(ports.ui),
      EMBEDDED_MONGO_PORT: String(ports.mongo),
      // `npm start` as a newcomer runs it: embedded servers, the SSRF rules on, the listener flag at its default.
      MONGODB_URI: '',
      TEMPORAL_ADDRESS: '',
      DELIVERY_ALLOW_PRIVATE_NETWORKS: 'false',
      DELIVERY_LOCAL_LISTENER: '',
    };
    const apiUrl = `http://127.0.0.1:${ports.api}`;
    let ids = { account: '', endpoint: '' };
    const asHere = (command: string) =>
      command
        .replaceAll('acct_...', ids.account)
        .replaceAll('ep_...', ids.endpoint)
        .replaceAll('http://127.0.0.1:3000', apiUrl)
        .replace('.listen(4000)', `.listen(${ports.app})`)
        .replace('http://localhost:4000/', `http://localhost:${ports.app}/`)
        .replace(/ &$/, '');
    const run = (command: string) => JSON.parse(runShell(asHere(command), env));
    const endpoints = async () => (await (await fetch(`${apiUrl}/api/v1/webhooks/endpoints`, { headers: { Authorization: `Bearer ${env.KEY}` } })).json() as { data: unknown[] }).data;
    const [accountCreate, keyCreate, exportKey, listen, sendEvent, getEvent, failingApp, listenForwarding, retryNow, cancel, portalSession] = TOUR;

    const platform = spawnRole('start', env as Record<string, string>);
    const running: ShellProcess[] = [];
    const start = (command: string) => {
      const shell = spawnShell(asHere(command), env);
      running.push(shell);
      return shell;
    };
    try {
      await platform.waitFor(/Platform ready/, 300_000);

      // 1. An account and an API key.
      ids = { account: run(accountCreate).id, endpoint: '' };
      const { key } = run(keyCreate);
      expect(key).toMatch(new RegExp(`^${exportKey.replace('export KEY=', '').replace('...', '')}`));
      env.KEY = key;

      // 2. A local receiver.
      const listener = start(listen);
      const endpointId = (await listener.waitFor(/Endpoint\s+(ep_\S+)/))[1];
      await listener.waitFor(/Ready/);

      // 3. Send an event: the listener prints it, verified; the event's GET shows it delivered.
      expect(run(sendEvent)).toMatchObject({ id: 1, type: 'order.created', destinations: 1 });
      await listener.waitFor(/event 1 {2}order\.created {2}attempt 1 {2}signature verified {2}→ 200/);
      const delivered = await eventually(async () => {
        const event = run(getEvent);
        return event.status === 'delivered' ? event : undefined;
      });
      expect(delivered.deliveries).toMatchObject([{ endpoint_id: endpointId, status: 'succeeded', attempts: [{ attempt: 1, status_code: 200 }] }]);

      // Ctrl-C: the endpoint is removed and the listener exits 0, and npm with it (the script execs node: no shell
      // between them to die of the SIGINT).
      expect(await listener.interrupt('SIGINT')).toBe(0);
      expect(listener.output()).toContain(`Stopped. Endpoint ${endpointId} removed.`);
      expect(await endpoints()).toEqual([]);

      // 5. An app answering 500 behind the listener: the platform gets the app's status and retries.
      let app = start(failingApp);
      await eventually(async () => (await isPortOpen(ports.app)) || undefined);
      const forwarding = start(listenForwarding);
      ids.endpoint = (await forwarding.waitFor(/Endpoint\s+(ep_\S+)/))[1];
      await forwarding.waitFor(/Ready/);
      expect(run(sendEvent)).toMatchObject({ id: 2, destinations: 1 });
      await forwarding.waitFor(/event 2 {2}order\.created {2}attempt 1 {2}signature verified {2}→ 500 from http:\/\/localhost:\d+\/webhooks/);
      await forwarding.waitFor(/event 2 {2}order\.created {2}attempt 2 {2}signature verified {2}→ 500/);

      // Fixed ("the same node -e line with 200"): a later attempt succeeds.
      await app.kill();
      app = start(failingApp.replace('res.statusCode = 500', 'res.statusCode = 200'));
      await eventually(async () => (await isPortOpen(ports.app)) || undefined);
      // Retry now: the delivery while it waits, or 409 if its timer has just fired and an attempt is in flight.
      const woken = run(retryNow);
      expect(woken.endpoint_id === ids.endpoint || woken.code === 'delivery_not_waiting').toBe(true);
      const retried = await eventually(async () => {
        const event = run(getEvent.replace('/events/1', '/events/2'));
        return event.status === 'delivered' ? event : undefined;
      }, 90_000);
      const codes = retried.deliveries[0].attempts.map((a: { status_code: number | null }) => a.status_code);
      expect(codes.slice(0, 2)).toEqual([500, 500]);
      expect(codes[codes.length - 1]).toBe(200);
      // The listener prints its line once it has answered, which the platform may record first.
      await forwarding.waitFor(/event 2 {2}order\.created {2}attempt \d+ {2}signature verified {2}→ 200/);
      expect(run(cancel)).toMatchObject({ code: 'delivery_ended' });

      expect(await forwarding.interrupt('SIGINT')).toBe(0);
      expect(forwarding.output()).toMatch(/Stopped\. Endpoint ep_\S+ removed\./);
      expect(await endpoints()).toEqual([]);

      // 6. A tenant's portal: a session whose url is the portal page with the token in its fragment, and whose token
      // works as Bearer on the tenant's records (none yet).
      const session = run(portalSession);
      expect(session.token).toMatch(/^whpt_/);
      expect(session.url.startsWith(`${apiUrl}/portal`)).toBe(true);
      expect(session.url.endsWith(`#token=${session.token}`)).toBe(true);
      const portal = await fetch(`${apiUrl}/api/v1/webhooks/endpoints`, { headers: { Authorization: `Bearer ${session.token}` } });
      expect(portal.status).toBe(200);
      expect(((await portal.json()) as { data: unknown[] }).data).toEqual([]);
    } finally {
      for (const shell of running) await shell.kill();
      await platform.stop();
    }
  }, 600_000);
});
