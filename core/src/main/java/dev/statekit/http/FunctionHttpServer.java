package dev.statekit.http;

import com.sun.net.httpserver.HttpServer;
import dev.statekit.protocol.RequestReplyHandler;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A StateFun remote function endpoint on the JDK's HTTP server: POST the bytes of a {@code
 * ToFunction} to {@code /} (or {@code /{namespace}/{type}}) and get the {@code FromFunction} back.
 * The rules are {@link HttpRouter}'s.
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

  private final HttpServer server;
  private final ExecutorService executor;
  private final URI url;

  private FunctionHttpServer(HttpServer server, ExecutorService executor, URI url) {
    this.server = server;
    this.executor = executor;
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
    return server.getAddress().getPort();
  }

  /** Stops listening at once and ends the worker threads. */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  /** Configures a {@link FunctionHttpServer}. */
  public static final class Builder {
    private final RequestReplyHandler handler;
    private String host = "127.0.0.1";
    private int port = 8000;
    private long maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
    private int threads = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());

    private Builder(RequestReplyHandler handler) {
      this.handler = handler;
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
     * @throws IllegalArgumentException if it is under 1
     */
    public Builder maxRequestBytes(long maxRequestBytes) {
      if (maxRequestBytes < 1) {
        throw new IllegalArgumentException(
            "maxRequestBytes must be at least 1, got " + maxRequestBytes);
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
      if (threads < 1) {
        throw new IllegalArgumentException("threads must be at least 1, got " + threads);
      }
      this.threads = threads;
      return this;
    }

    /**
     * Binds and starts the server.
     *
     * @throws BindException if the port is taken, with a message naming it
     * @throws IOException if the server can't be opened otherwise
     */
    public FunctionHttpServer start() throws IOException {
      InetSocketAddress address = new InetSocketAddress(host, port);
      HttpServer server;
      try {
        server = HttpServer.create(address, 0);
      } catch (BindException e) {
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
      ExecutorService executor = Executors.newFixedThreadPool(threads, daemonThreads());
      server.createContext("/", new ExchangeHandler(new HttpRouter(handler, maxRequestBytes)));
      server.setExecutor(executor);
      server.start();
      String hostPart = host.contains(":") ? "[" + host + "]" : host;
      URI url = URI.create("http://" + hostPart + ":" + server.getAddress().getPort() + "/");
      return new FunctionHttpServer(server, executor, url);
    }

    private static ThreadFactory daemonThreads() {
      AtomicInteger count = new AtomicInteger();
      return runnable -> {
        Thread thread = new Thread(runnable, "statekit-http-" + count.incrementAndGet());
        thread.setDaemon(true);
        return thread;
      };
    }
  }
}
