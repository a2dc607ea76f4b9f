/** `KEY=svc_live_weh_... npx tsx examples/send.ts`: sends one event to the platform of `npm start`. */
import { PlatformClient } from '../src/index.js';

const client = new PlatformClient(process.env.PLATFORM_URL ?? 'http://127.0.0.1:3000', process.env.KEY ?? '');
const event = await client.events.send('order.created', { order_id: 42 });
console.log(event);
