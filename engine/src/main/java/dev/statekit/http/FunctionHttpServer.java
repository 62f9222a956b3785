package dev.statekit.http;

import dev.statekit.protocol.RequestReplyHandler;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A StateFun remote function endpoint: POST the bytes of a {@code ToFunction} to {@code /} (or
 * {@code /{namespace}/{type}}) and get the {@code FromFunction} back. The rules are {@link
 * HttpRouter}'s.
 *
 * <p>It speaks HTTP/1.1 (keep-alive, {@code Content-Length} or chunked bodies, {@code Expect:
 * 100-continue}) on one I/O thread that reads every connection without blocking, and runs functions
 * on a fixed pool of workers that only ever see complete requests. Every connection is held to
 * bounds: its headers must arrive within {@link Builder#headerTimeout}, the whole request within
 * {@link Builder#requestTimeout} (else {@code 408}); an idle kept-alive connection is closed after
 * {@link Builder#idleTimeout}; past {@link Builder#maxConnections} connections, {@link
 * Builder#maxQueuedRequests} requests waiting for a worker or {@link Builder#maxBufferedBytes}
 * request bytes held, new work is answered {@code 503} with {@code Retry-After}. A few slow or
 * stalled clients so hold a connection slot each until their deadline, never a worker.
 *
 * <pre>{@code
 * try (FunctionHttpServer server =
 *     FunctionHttpServer.builder(new RequestReplyHandler(functions)).port(8000).start()) {
 *   System.out.println("Listening on " + server.url());
 *   ...
 * }
 * }</pre>
 */
public final class FunctionHttpServer implements AutoCloseable {
  /** The default request size limit: 32 MiB. */
  public static final long DEFAULT_MAX_REQUEST_BYTES = 32L * 1024 * 1024;

  private final ServerSocketChannel channel;
  private final ServerLoop loop;
  private final Thread loopThread;
  private final ExecutorService workers;
  private final URI url;

  private FunctionHttpServer(
      ServerSocketChannel channel,
      ServerLoop loop,
      Thread loopThread,
      ExecutorService workers,
      URI url) {
    this.channel = channel;
    this.loop = loop;
    this.loopThread = loopThread;
    this.workers = workers;
    this.url = url;
  }

  /** Starts configuring a server for {@code handler}. */
  public static Builder builder(RequestReplyHandler handler) {
    return new Builder(Objects.requireNonNull(handler, "handler"));
  }

  /** The base URL, e.g. {@code http://127.0.0.1:8000/}. */
  public URI url() {
    return url;
  }

  /** The port listened on (useful after asking for port 0). */
  public int port() {
    return channel.socket().getLocalPort();
  }

  /** Stops listening at once, closes every connection and ends the worker threads. */
  @Override
  public void close() {
    loop.stop();
    try {
      loopThread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      channel.close();
    } catch (IOException e) {
      // Closing is all that is left to do.
    }
    workers.shutdownNow();
  }

  /** Configures a {@link FunctionHttpServer}. */
  public static final class Builder {
    private final RequestReplyHandler handler;
    private String host = "127.0.0.1";
    private int port = 8000;
    private long maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
    private int threads = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
    private Duration headerTimeout = Duration.ofSeconds(10);
    private Duration requestTimeout = Duration.ofSeconds(60);
    private Duration idleTimeout = Duration.ofSeconds(60);
    private int maxConnections = 512;
    private int maxQueuedRequests = -1;
    private long maxBufferedBytes = -1;
    private dev.statekit.event.EnvelopeConsumer calls;

    private Builder(RequestReplyHandler handler) {
      this.handler = handler;
    }

    /**
     * Also answers request-reply calls, {@code POST /call/<namespace>/<type>/<id>} with a JSON body
     * {@code {"typename": ..., "value": ...}} and an {@code Idempotency-Key} header, through {@code
     * calls} (a function runtime's {@code envelopeConsumer()}).
     */
    public Builder calls(dev.statekit.event.EnvelopeConsumer calls) {
      this.calls = Objects.requireNonNull(calls, "calls");
      return this;
    }

    /** The interface to listen on; default {@code 127.0.0.1}. */
    public Builder host(String host) {
      this.host = Objects.requireNonNull(host, "host");
      return this;
    }

    /**
     * The port; default 8000, 0 for any free port.
     *
     * @throws IllegalArgumentException if it is outside 0 to 65535
     */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("A port is 0 to 65535 (0: any free port), got " + port);
      }
      this.port = port;
      return this;
    }

    /**
     * The largest request body accepted (413 beyond); default 32 MiB.
     *
     * @throws IllegalArgumentException if it is under 1 or over 2 GiB
     */
    public Builder maxRequestBytes(long maxRequestBytes) {
      if (maxRequestBytes < 1 || maxRequestBytes > Integer.MAX_VALUE - 16) {
        throw new IllegalArgumentException(
            "maxRequestBytes must be 1 to "
                + (Integer.MAX_VALUE - 16)
                + ", got "
                + maxRequestBytes);
      }
      this.maxRequestBytes = maxRequestBytes;
      return this;
    }

    /**
     * How many requests run at once; default twice the processors, at least 4.
     *
     * @throws IllegalArgumentException if it is under 1
     */
    public Builder threads(int threads) {
      this.threads = atLeastOne(threads, "threads");
      return this;
    }

    /** How long a request's line and headers may take to arrive (408 beyond); default 10 s. */
    public Builder headerTimeout(Duration headerTimeout) {
      this.headerTimeout = positive(headerTimeout, "headerTimeout");
      return this;
    }

    /**
     * How long a whole request may take to arrive, counted from its first byte (408 beyond), and
     * how long its answer may take to be read; default 60 s.
     */
    public Builder requestTimeout(Duration requestTimeout) {
      this.requestTimeout = positive(requestTimeout, "requestTimeout");
      return this;
    }

    /** How long a kept-alive connection may wait for its next request; default 60 s. */
    public Builder idleTimeout(Duration idleTimeout) {
      this.idleTimeout = positive(idleTimeout, "idleTimeout");
      return this;
    }

    /** The most connections open at once (a new one beyond gets a 503); default 512. */
    public Builder maxConnections(int maxConnections) {
      this.maxConnections = atLeastOne(maxConnections, "maxConnections");
      return this;
    }

    /**
     * The most complete requests waiting for a worker (503 beyond); default 16 per thread.
     *
     * @throws IllegalArgumentException if it is under 1
     */
    public Builder maxQueuedRequests(int maxQueuedRequests) {
      this.maxQueuedRequests = atLeastOne(maxQueuedRequests, "maxQueuedRequests");
      return this;
    }

    /**
     * The most request bytes all connections may hold together (a request that would pass it gets a
     * 503); default four requests of the largest size, at most a quarter of the heap, and never
     * less than one request.
     */
    public Builder maxBufferedBytes(long maxBufferedBytes) {
      if (maxBufferedBytes < 1) {
        throw new IllegalArgumentException(
            "maxBufferedBytes must be at least 1, got " + maxBufferedBytes);
      }
      this.maxBufferedBytes = maxBufferedBytes;
      return this;
    }

    /**
     * Binds and starts the server.
     *
     * @throws BindException if the port is taken, with a message naming it
     * @throws IOException if the server can't be opened otherwise
     */
    public FunctionHttpServer start() throws IOException {
      ServerSocketChannel channel = ServerSocketChannel.open();
      try {
        channel.bind(new InetSocketAddress(host, port), 256);
        channel.configureBlocking(false);
      } catch (BindException e) {
        channel.close();
        BindException clear =
            new BindException(
                "Can't listen on "
                    + host
                    + ":"
                    + port
                    + " ("
                    + e.getMessage()
                    + "): the port is in use or not allowed; stop what holds it or choose another"
                    + " port");
        clear.initCause(e);
        throw clear;
      }
      HttpLimits limits = limits();
      ExecutorService workers =
          new ThreadPoolExecutor(
              threads,
              threads,
              0,
              TimeUnit.MILLISECONDS,
              new ArrayBlockingQueue<>(limits.maxQueuedRequests()),
              daemonThreads("statekit-http-"));
      ServerLoop loop =
          new ServerLoop(
              Selector.open(),
              channel,
              new HttpRouter(handler, maxRequestBytes, calls),
              limits,
              workers);
      Thread loopThread = daemonThreads("statekit-http-io-").newThread(loop);
      loopThread.start();
      String hostPart = host.contains(":") ? "[" + host + "]" : host;
      URI url = URI.create("http://" + hostPart + ":" + channel.socket().getLocalPort() + "/");
      return new FunctionHttpServer(channel, loop, loopThread, workers, url);
    }

    private HttpLimits limits() {
      long buffered =
          maxBufferedBytes > 0
              ? maxBufferedBytes
              : Math.max(
                  maxRequestBytes,
                  Math.min(4 * maxRequestBytes, Runtime.getRuntime().maxMemory() / 4));
      return new HttpLimits(
          maxRequestBytes,
          HttpLimits.DEFAULT_MAX_HEAD_BYTES,
          HttpLimits.DEFAULT_MAX_HEADERS,
          headerTimeout,
          requestTimeout,
          idleTimeout,
          maxConnections,
          maxQueuedRequests > 0 ? maxQueuedRequests : 16 * threads,
          buffered);
    }

    private static int atLeastOne(int value, String name) {
      if (value < 1) {
        throw new IllegalArgumentException(name + " must be at least 1, got " + value);
      }
      return value;
    }

    private static Duration positive(Duration value, String name) {
      Objects.requireNonNull(value, name);
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(name + " must be longer than zero, got " + value);
      }
      return value;
    }

    private static ThreadFactory daemonThreads(String prefix) {
      AtomicInteger count = new AtomicInteger();
      return runnable -> {
        Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
        thread.setDaemon(true);
        return thread;
      };
    }
  }
}
