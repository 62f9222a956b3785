package dev.statekit.http;

import java.time.Duration;

/**
 * The bounds the endpoint holds each connection to, so that a slow, stalled or oversized client
 * costs a bounded time, memory and share of the server. {@link FunctionHttpServer.Builder} sets
 * them; the README's "Limits" lists each with the answer it gives.
 *
 * @param maxRequestBytes the largest body (413 beyond)
 * @param maxHeadBytes the largest request line plus headers (414 or 431 beyond)
 * @param maxHeaders the most header fields (431 beyond)
 * @param headerTimeout how long a request's line and headers may take to arrive (408 beyond)
 * @param requestTimeout how long a whole request may take to arrive, and its answer to be taken
 *     (408 beyond)
 * @param idleTimeout how long a kept-alive connection may wait for its next request (closed beyond)
 * @param maxConnections the most connections open at once (503 beyond)
 * @param maxQueuedRequests the most requests read and waiting for a worker (503 beyond)
 * @param maxBufferedBytes the most request bytes held by all connections together (503 beyond)
 */
record HttpLimits(
    long maxRequestBytes,
    int maxHeadBytes,
    int maxHeaders,
    Duration headerTimeout,
    Duration requestTimeout,
    Duration idleTimeout,
    int maxConnections,
    int maxQueuedRequests,
    long maxBufferedBytes) {
  static final int DEFAULT_MAX_HEAD_BYTES = 16 * 1024;
  static final int DEFAULT_MAX_HEADERS = 100;

  /** Bounds for the request parser alone (tests, fuzzing). */
  static HttpLimits parsing(long maxRequestBytes) {
    return new HttpLimits(
        maxRequestBytes,
        DEFAULT_MAX_HEAD_BYTES,
        DEFAULT_MAX_HEADERS,
        Duration.ofSeconds(10),
        Duration.ofSeconds(60),
        Duration.ofSeconds(60),
        1,
        1,
        maxRequestBytes);
  }
}
