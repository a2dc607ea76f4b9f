// A `Request`-based handler: a Next.js route handler (app/webhooks/route.ts) or a Cloudflare Worker.
import { verifyRequest, WebhookVerificationError } from '@devops-platform/webhook-verify';

export async function POST(request: Request): Promise<Response> {
  try {
    const { event } = await verifyRequest(request, { secrets: [process.env.WEBHOOK_SECRET as string] });
    console.log('received', event?.type);
    return new Response(null, { status: 204 });
  } catch (err) {
    if (err instanceof WebhookVerificationError) return Response.json({ error: err.code }, { status: 401 });
    throw err;
  }
}

// Cloudflare Worker: export default { fetch: (request: Request, env: { WEBHOOK_SECRET: string }) => ... verifyRequest(request, { secrets: [env.WEBHOOK_SECRET] }) }
