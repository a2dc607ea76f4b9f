import { once } from 'node:events';
import { connect, type Socket } from 'node:net';

/**
 * Writes each request on one new connection to 127.0.0.1:`port`, each once the answer to the one before has come (its
 * JSON body ended), and reads until the server ends its side: everything it sent. `keepOpen`: the client never ends its
 * own side (a net socket's default would, once the server's ends); the caller destroys `socket`.
 */
export async function rawExchange(port: number, requests: string[], { keepOpen = false } = {}): Promise<{ raw: string; socket: Socket }> {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: keepOpen });
  socket.setEncoding('utf8');
  let raw = '';
  socket.on('data', (chunk: string) => (raw += chunk));
  const answered = (count: number) => raw.split('HTTP/1.1 ').length > count && raw.endsWith('}');
  const ended = once(socket, 'end');
  for (const [i, request] of requests.entries()) {
    while (i > 0 && !answered(i)) await once(socket, 'data');
    socket.write(request);
  }
  if (!keepOpen) socket.end();
  await ended;
  return { raw, socket };
}

/** The last answer of a raw exchange: its status line and headers, and its parsed JSON body. */
export function lastAnswer(raw: string): { head: string; body: unknown } {
  const end = raw.lastIndexOf('\r\n\r\n');
  return { head: raw.slice(raw.lastIndexOf('HTTP/1.1 '), end), body: JSON.parse(raw.slice(end + 4)) };
}
