// Express: take the body raw (express.raw), never express.json(): re-serialised JSON does not verify.
import express from 'express';
import { WebhookVerificationError } from '@devops-platform/webhook-verify';
import { verifySync } from '@devops-platform/webhook-verify/node';

const app = express();
const secrets = [process.env.WEBHOOK_SECRET as string];
const seen = new Set<string>(); // use your database: de-duplicate on the verified id

app.post('/webhooks', express.raw({ type: '*/*' }), (req, res) => {
  try {
    const { id, event } = verifySync(req.body as Buffer, req.headers, { secrets });
    if (!seen.has(id)) {
      seen.add(id);
      console.log('received', event?.type);
    }
    res.sendStatus(204);
  } catch (err) {
    if (err instanceof WebhookVerificationError) return res.status(401).json({ error: err.code });
    throw err;
  }
});

app.listen(3000);
