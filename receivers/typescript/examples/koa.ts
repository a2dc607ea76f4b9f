// Koa: read the raw bytes yourself (raw-body) instead of a JSON body parser.
import Koa from 'koa';
import getRawBody from 'raw-body';
import { WebhookVerificationError } from '@devops-platform/webhook-verify';
import { verifySync } from '@devops-platform/webhook-verify/node';

const app = new Koa();
const secrets = [process.env.WEBHOOK_SECRET as string];

app.use(async (ctx) => {
  if (ctx.method !== 'POST' || ctx.path !== '/webhooks') return;
  const raw = await getRawBody(ctx.req, { limit: '1mb' });
  try {
    const { event } = verifySync(raw, ctx.headers, { secrets });
    console.log('received', event?.type);
    ctx.status = 204;
  } catch (err) {
    if (!(err instanceof WebhookVerificationError)) throw err;
    ctx.status = 401;
    ctx.body = { error: err.code };
  }
});

app.listen(3000);
