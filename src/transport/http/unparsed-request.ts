import { maxHeaderSize, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { DomainError, ValidationError } from '../../domain/errors';
import { errorAnswer } from './middleware/error-handler';

/** Node's parser errors, answered as Node answers them by default (431, 413, 408, else 400), in the API's error format. */
function parserError(code: string | undefined, headerLimit: number): DomainError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new DomainError('headers_too_large', `The request line and headers together are over ${inBytes(headerLimit)}.`);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW': // a fixed limit of Node's parser
      return new DomainError('payload_too_large', 'The chunk extensions of the body are over 16 KiB.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new DomainError('request_timeout', 'The request was not received in time.');
    default:
      // Every 400 says where (CONTRACT §2): nothing of it could be read, so the request as a whole, the root path.
      return new ValidationError('The request is not valid HTTP/1.1.', [{ path: '', message: 'is not valid HTTP/1.1' }]);
  }
}

function inBytes(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

/**
 * Node answers a request it cannot parse (headers over its limit, a malformed request line) before any middleware sees
 * it, with an empty body: this gives it the same JSON error body as every other answer. Nothing was read, so nothing
 * was done.
 */
export function answerUnparsedRequests(server: Server): void {
  // The server's own limit, else the process's (node --max-http-header-size): the one the parser applied.
  const headerLimit = (server as { maxHeaderSize?: number }).maxHeaderSize ?? maxHeaderSize;
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => answerOn(socket, err, headerLimit));
}

function answerOn(socket: Duplex & { _httpMessage?: { headersSent: boolean } | null }, err: Error & { code?: string }, headerLimit: number): void {
  // The client has gone, or the answer to an earlier request on this connection is half out (Node's own handler reads
  // that from the same field): an answer now would corrupt the stream.
  if (!socket.writable || socket._httpMessage?.headersSent || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const answer = errorAnswer(parserError(err.code, headerLimit));
  const body = JSON.stringify(answer.body);
  // Closed once the answer is out, as Node closes it: the server keeps connections half-open, so a client that never
  // closes its side would otherwise hold the socket.
  socket.end(
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}
