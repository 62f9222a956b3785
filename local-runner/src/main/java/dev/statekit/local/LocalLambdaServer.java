package dev.statekit.local;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The functions of the template over HTTP, as AWS exposes them:
 *
 * <ul>
 *   <li>{@code POST /2015-03-31/functions/{name}/invocations}: Lambda's invoke API ({@code aws
 *       lambda invoke --endpoint-url} works against it); a function error answers 200 with {@code
 *       X-Amz-Function-Error: Unhandled} and Lambda's error document;
 *   <li>{@code /statekit/...}: the local runner's own questions (see {@link ControlApi});
 *   <li>{@code /console/} and {@code /statekit/api/...}: the console and its JSON API (see {@link
 *       ConsoleApi});
 *   <li>every other path: the function URL of the function that has one, so a Flink StateFun
 *       runtime (or curl) reaches the StateFun endpoint at {@code /{namespace}/{type}}.
 * </ul>
 */
final class LocalLambdaServer implements AutoCloseable {
  private static final dev.statekit.telemetry.Log LOG =
      dev.statekit.telemetry.Log.of(LocalLambdaServer.class);

  /** Lambda's limit of a synchronous invocation's request payload, and a function URL's. */
  static final int MAX_PAYLOAD_BYTES = 6 * 1024 * 1024;

  /** Lambda's limit of an asynchronous ({@code Event}) invocation's payload. */
  static final int MAX_ASYNC_PAYLOAD_BYTES = 1024 * 1024;

  /** The most of a refused body read before the answer. */
  static final long MOST_DRAINED = 4L * MAX_PAYLOAD_BYTES;

  /** Exchanges served at once; more are refused (the JDK server closes their connection). */
  private static final int MAX_EXCHANGES = 256;

  private static final String INVOKE_PREFIX = "/2015-03-31/functions/";

  private final HttpServer server;
  private final ExecutorService executor;
  private final URI url;

  private LocalLambdaServer(HttpServer server, ExecutorService executor, URI url) {
    this.server = server;
    this.executor = executor;
    this.url = url;
  }

  /**
   * Binds and starts.
   *
   * @param functions a function by logical id, or null if there is none of that name
   * @param urlFunction the function behind the function URL, or null
   * @throws BindException if the port is taken, saying so
   */
  static LocalLambdaServer start(
      String host,
      int port,
      Function<String, LocalFunction> functions,
      String urlFunction,
      ControlApi control,
      ConsoleApi console)
      throws IOException {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(host, port), 0);
    } catch (BindException e) {
      throw portTaken(host, port, e);
    }
    // A thread per exchange in flight, up to MAX_EXCHANGES: the JDK server reads a request's
    // headers on these threads, so a fixed few were all held by as many clients that sent a line
    // and stalled, and the function URL, invoke API, state and console answered nobody.
    ExecutorService executor =
        new ThreadPoolExecutor(
            0,
            MAX_EXCHANGES,
            60,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            r -> {
              Thread t = new Thread(r, "statekit-serve-http");
              t.setDaemon(true);
              return t;
            });
    List<HttpContext> contexts = new ArrayList<>();
    contexts.add(server.createContext(INVOKE_PREFIX, exchange -> invokeApi(exchange, functions)));
    contexts.add(server.createContext("/statekit/", control::handle));
    if (console != null) {
      contexts.add(server.createContext(ConsoleApi.API, console::api));
      contexts.add(server.createContext("/console", console::page));
    }
    contexts.add(
        server.createContext("/", exchange -> functionUrl(exchange, functions, urlFunction)));
    BrowserGuard guard = new BrowserGuard(host);
    contexts.forEach(context -> context.getFilters().add(guard));
    server.setExecutor(executor);
    server.start();
    return new LocalLambdaServer(
        server, executor, URI.create("http://" + host + ":" + server.getAddress().getPort() + "/"));
  }

  /** The failure for a port that can't be had: names it and what to do. */
  static BindException portTaken(String host, int port, java.io.IOException cause) {
    BindException clear =
        new BindException(
            "Can't listen on "
                + host
                + ":"
                + port
                + " ("
                + cause.getMessage()
                + "): the port is in use or not allowed; stop what holds it or choose another"
                + " port with --port");
    clear.initCause(cause);
    return clear;
  }

  URI url() {
    return url;
  }

  private static void invokeApi(HttpExchange exchange, Function<String, LocalFunction> functions)
      throws IOException {
    try (exchange) {
      String rest = exchange.getRequestURI().getPath().substring(INVOKE_PREFIX.length());
      String name =
          rest.endsWith("/invocations")
              ? rest.substring(0, rest.length() - "/invocations".length())
              : null;
      if (name == null || !"POST".equals(exchange.getRequestMethod())) {
        send(
            exchange,
            404,
            "text/plain",
            "Use POST /2015-03-31/functions/{name}/invocations".getBytes(StandardCharsets.UTF_8));
        return;
      }
      LocalFunction function = functions.apply(name);
      if (function == null) {
        send(
            exchange,
            404,
            "text/plain",
            ("Function not found: " + name).getBytes(StandardCharsets.UTF_8));
        return;
      }
      byte[] payload = body(exchange);
      if (payload == null) {
        return;
      }
      String type = exchange.getRequestHeaders().getFirst("X-Amz-Invocation-Type");
      if ("DryRun".equals(type)) {
        // Lambda checks the caller may invoke and runs nothing: nothing here to check.
        exchange.sendResponseHeaders(204, -1);
        return;
      }
      if ("Event".equals(type) && payload.length > MAX_ASYNC_PAYLOAD_BYTES) {
        send(
            exchange,
            413,
            "text/plain",
            ("The payload is over Lambda's "
                    + MAX_ASYNC_PAYLOAD_BYTES
                    + " bytes for an asynchronous (Event) invocation; send less, or invoke"
                    + " synchronously")
                .getBytes(StandardCharsets.UTF_8));
        return;
      }
      if ("Event".equals(type)) {
        // Queued and answered at once; run once in the background (Lambda's two retries of a
        // failed asynchronous invocation are not emulated).
        exchange.sendResponseHeaders(202, -1);
        Thread run =
            new Thread(
                () -> {
                  try {
                    function.invoke(payload);
                  } catch (LocalFunction.FunctionError e) {
                    LOG.warn("An asynchronous invocation of " + name + " failed", e);
                  }
                },
                "statekit-async-" + name);
        run.setDaemon(true);
        run.start();
        return;
      }
      try {
        send(exchange, 200, "application/json", function.invoke(payload));
      } catch (LocalFunction.FunctionError e) {
        exchange.getResponseHeaders().set("X-Amz-Function-Error", "Unhandled");
        send(exchange, 200, "application/json", e.errorJson().getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  private static void functionUrl(
      HttpExchange exchange, Function<String, LocalFunction> functions, String urlFunction)
      throws IOException {
    try (exchange) {
      LocalFunction function = urlFunction == null ? null : functions.apply(urlFunction);
      if (function == null) {
        send(
            exchange,
            404,
            "text/plain",
            "No function of the template has a FunctionUrlConfig".getBytes(StandardCharsets.UTF_8));
        return;
      }
      byte[] body = body(exchange);
      if (body == null) {
        return;
      }
      try {
        FunctionUrlEvents.respond(
            exchange, function.invoke(FunctionUrlEvents.event(exchange, body)));
      } catch (LocalFunction.FunctionError e) {
        // A function URL answers 502 when the function fails.
        send(exchange, 502, "application/json", e.errorJson().getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  /**
   * The request's body, or null once it was answered 413: over Lambda's 6 MB a payload is refused,
   * as Lambda does. A body up to {@link #MOST_DRAINED} is read to its end first, so that a client
   * still sending it gets the answer, not a reset; one declared longer is refused before anything
   * is read.
   */
  private static byte[] body(HttpExchange exchange) throws IOException {
    String declared = exchange.getRequestHeaders().getFirst("Content-Length");
    long length;
    try {
      length = declared == null ? -1 : Long.parseLong(declared.trim());
    } catch (NumberFormatException e) {
      send(
          exchange,
          400,
          "text/plain",
          ("Content-Length is not a number: " + declared).getBytes(StandardCharsets.UTF_8));
      return null;
    }
    boolean over = length > MAX_PAYLOAD_BYTES;
    byte[] body = null;
    if (length <= MOST_DRAINED) {
      body = exchange.getRequestBody().readNBytes(MAX_PAYLOAD_BYTES + 1);
      over = body.length > MAX_PAYLOAD_BYTES;
      if (over) {
        drain(exchange.getRequestBody(), MOST_DRAINED);
      }
    }
    if (over) {
      send(
          exchange,
          413,
          "text/plain",
          ("The payload is over Lambda's "
                  + MAX_PAYLOAD_BYTES
                  + " bytes for a request; send less, or large data by reference (e.g. S3)")
              .getBytes(StandardCharsets.UTF_8));
      return null;
    }
    return body;
  }

  /** Reads and drops up to {@code most} bytes of {@code in}, to its end if sooner. */
  static void drain(java.io.InputStream in, long most) throws IOException {
    byte[] sink = new byte[64 * 1024];
    for (long read = 0; read < most; ) {
      int n = in.read(sink, 0, (int) Math.min(sink.length, most - read));
      if (n < 0) {
        return;
      }
      read += n;
    }
  }

  static void send(HttpExchange exchange, int status, String contentType, byte[] body)
      throws IOException {
    if (contentType != null) {
      exchange.getResponseHeaders().set("Content-Type", contentType);
    }
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
