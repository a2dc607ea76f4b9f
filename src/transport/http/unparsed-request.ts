import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '../../domain/error-codes';
import { DomainError } from '../../domain/errors';
import { errorAnswer } from './middleware/error-handler';

/** Node's parser errors, answered as Node answers them by default (431, 413, 408, else 400), in the API's error format. */
const PARSER_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', message: 'The request line and headers together are over 16 KiB.' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { code: 'payload_too_large', message: 'The chunk extensions of the body are over 16 KiB.' },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request_timeout', message: 'The request was not received in time.' },
};
const MALFORMED = { code: 'invalid_request', message: 'The request is not valid HTTP/1.1.' } as const;

/**
 * Node answers a request it cannot parse (headers over its limit, a malformed request line) before any middleware sees
 * it, with an empty body: `server.on('clientError', answerUnparsedRequest)` gives it the same JSON error body as every
 * other answer. Nothing was read, so nothing was done.
 */
export function answerUnparsedRequest(err: Error & { code?: string }, socket: Duplex & { _httpMessage?: { headersSent: boolean } | null }): void {
  // The client has gone, or the answer to an earlier request on this connection is half out (Node's own handler reads
  // that from the same field): an answer now would corrupt the stream.
  if (!socket.writable || socket._httpMessage?.headersSent || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const { code, message } = PARSER_ERRORS[err.code ?? ''] ?? MALFORMED;
  const answer = errorAnswer(new DomainError(code, message));
  const body = JSON.stringify(answer.body);
  // Closed once the answer is out, as Node closes it: the server keeps connections half-open, so a client that never
  // closes its side would otherwise hold the socket.
  socket.end(
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}
