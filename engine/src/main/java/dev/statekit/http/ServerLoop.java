package dev.statekit.http;

import dev.statekit.telemetry.Log;
import dev.statekit.telemetry.LogLevel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

/**
 * The endpoint's one I/O thread: it accepts, reads every connection without blocking, holds each to
 * its deadline, and hands only complete requests to the workers. A slow or stalled client so costs
 * a connection slot and the bytes it sent until its deadline, never a worker.
 */
final class ServerLoop implements Runnable {
  private static final Log LOG = Log.of(ServerLoop.class);
  private static final long TICK_MILLIS = 100;
  private static final java.time.Duration DRAIN = java.time.Duration.ofSeconds(2);

  private final Selector selector;
  private final ServerSocketChannel server;
  private final HttpRouter router;
  private final HttpLimits limits;
  private final ExecutorService workers;
  private final Set<Connection> connections = new LinkedHashSet<>();
  private final Queue<Runnable> completions = new ConcurrentLinkedQueue<>();
  private final ByteBuffer readBuffer = ByteBuffer.allocate(64 * 1024);
  private long bufferedBytes;
  private volatile boolean running = true;

  ServerLoop(
      Selector selector,
      ServerSocketChannel server,
      HttpRouter router,
      HttpLimits limits,
      ExecutorService workers) {
    this.selector = selector;
    this.server = server;
    this.router = router;
    this.limits = limits;
    this.workers = workers;
  }

  void stop() {
    running = false;
    selector.wakeup();
  }

  @Override
  public void run() {
    try {
      server.register(selector, SelectionKey.OP_ACCEPT);
      while (running) {
        selector.select(TICK_MILLIS);
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
          SelectionKey key = keys.next();
          keys.remove();
          ready(key);
        }
        for (Runnable completion; (completion = completions.poll()) != null; ) {
          completion.run();
        }
        expire(System.nanoTime());
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(LogLevel.ERROR, "The HTTP endpoint's I/O thread stopped", e);
    } finally {
      new ArrayList<>(connections).forEach(this::close);
      try {
        selector.close();
      } catch (IOException e) {
        LOG.debug("Closing the selector failed", e);
      }
    }
  }

  private void ready(SelectionKey key) {
    if (!key.isValid()) {
      return;
    }
    if (key.isAcceptable()) {
      accept();
      return;
    }
    Connection connection = (Connection) key.attachment();
    try {
      if (key.isReadable()) {
        read(connection);
      }
      if (key.isValid() && key.isWritable()) {
        write(connection);
      }
    } catch (IOException e) {
      // The client went away or reset the connection: nobody is left to answer.
      LOG.debug("A connection failed: " + e);
      close(connection);
    } catch (RuntimeException | Error e) {
      // One connection's failure is that connection's: the loop goes on serving the others.
      LOG.log(LogLevel.ERROR, "A connection failed unexpectedly and was closed", e);
      close(connection);
    }
  }

  private void accept() {
    SocketChannel channel;
    try {
      channel = server.accept();
      if (channel == null) {
        return;
      }
      channel.configureBlocking(false);
      channel.socket().setTcpNoDelay(true);
    } catch (IOException e) {
      LOG.debug("Accepting a connection failed: " + e);
      return;
    }
    if (connections.size() >= limits.maxConnections() && !closeLongestIdle()) {
      refuseAtOnce(channel);
      return;
    }
    try {
      SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
      Connection connection =
          new Connection(channel, key, new RequestParser(limits), deadline(limits.headerTimeout()));
      key.attach(connection);
      connections.add(connection);
    } catch (IOException e) {
      closeQuietly(channel);
    }
  }

  /**
   * At the connection limit, makes room by closing the kept-alive connection idle longest (HTTP
   * lets a server close an idle persistent connection at any time; its client opens another): idle
   * connections, a cluster's pool of them, would otherwise lock every new caller out. A connection
   * still to make its first request is not one: its client is owed an answer.
   *
   * @return false if every connection is busy with a request
   */
  private boolean closeLongestIdle() {
    Connection longest = null;
    for (Connection connection : connections) {
      if (connection.phase == Connection.Phase.IDLE
          && connection.keptAlive
          && connection.leftover == null
          && (longest == null || connection.deadline - longest.deadline < 0)) {
        longest = connection;
      }
    }
    if (longest == null) {
      return false;
    }
    close(longest);
    return true;
  }

  /** Past the connection limit: one try at a 503, then the connection is closed. */
  private void refuseAtOnce(SocketChannel channel) {
    HttpAnswer busy =
        HttpAnswer.error(
            503,
            "The endpoint has "
                + limits.maxConnections()
                + " connections open, its most; retry shortly");
    try {
      channel.write(ResponseBytes.of(busy, false, true));
    } catch (IOException e) {
      LOG.debug("The 503 could not be sent: " + e);
    }
    closeQuietly(channel);
  }

  private void read(Connection connection) throws IOException {
    readBuffer.clear();
    int read = connection.channel.read(readBuffer);
    if (read < 0) {
      close(connection);
      return;
    }
    if (connection.phase != Connection.Phase.DRAINING) {
      take(connection, readBuffer.array(), 0, read);
    }
  }

  /** Feeds bytes that arrived to the connection's request, and acts on what they completed. */
  private void take(Connection connection, byte[] bytes, int offset, int length) {
    if (length == 0 || connection.phase == Connection.Phase.WRITING) {
      return;
    }
    if (connection.phase == Connection.Phase.IDLE) {
      connection.phase = Connection.Phase.READING;
      connection.requestStart = System.nanoTime();
      connection.deadline = connection.requestStart + limits.headerTimeout().toNanos();
    }
    RequestParser parser = connection.parser;
    int used = parser.feed(bytes, offset, length);
    account(connection, parser.bufferedBodyBytes());
    if (parser.state() == RequestParser.State.FAILED) {
      HttpProblem problem = parser.problem();
      respond(connection, HttpAnswer.error(problem.status(), problem.message()), true);
      return;
    }
    if (bufferedBytes > limits.maxBufferedBytes()) {
      respond(
          connection,
          HttpAnswer.error(
              503, "The endpoint holds as many request bytes as it may; retry shortly"),
          true);
      return;
    }
    if (parser.headComplete() && !connection.prechecked && !precheck(connection)) {
      return;
    }
    if (parser.state() == RequestParser.State.DONE) {
      if (used < length) {
        connection.leftover = Arrays.copyOfRange(bytes, offset + used, offset + length);
      }
      dispatch(connection);
    }
  }

  /** The checks that need no body; false if the request was answered already. */
  private boolean precheck(Connection connection) {
    RequestParser parser = connection.parser;
    connection.prechecked = true;
    connection.head = "HEAD".equals(parser.method());
    connection.deadline = connection.requestStart + limits.requestTimeout().toNanos();
    HttpAnswer refused =
        router.precheck(
            parser.method(), parser.path(), parser.header("Content-Type"), parser.declaredLength());
    if (refused != null) {
      // The body, if any, was never read: the connection can't carry another request.
      respond(connection, refused, true);
      return false;
    }
    if (parser.expectsContinue() && parser.state() == RequestParser.State.BODY) {
      try {
        connection.channel.write(ByteBuffer.wrap(ResponseBytes.CONTINUE));
      } catch (IOException e) {
        close(connection);
        return false;
      }
    }
    return true;
  }

  private void dispatch(Connection connection) {
    RequestParser request = connection.parser;
    connection.phase = Connection.Phase.WORKING;
    connection.deadline = Long.MAX_VALUE;
    connection.key.interestOps(0);
    boolean close = !request.keepAlive();
    try {
      workers.execute(
          () -> {
            HttpAnswer answer;
            try {
              answer =
                  router.handle(
                      request.method(),
                      request.path(),
                      request.header("Content-Type"),
                      request.body(),
                      request::header);
            } catch (RuntimeException | Error e) {
              // Answered whatever was thrown: a connection left without its completion would wait
              // for ever, its slot taken for good.
              answer = HttpRouter.unexpected("The request", e);
            }
            HttpAnswer done = answer;
            completions.add(guarded(connection, () -> answered(connection, done, close)));
            selector.wakeup();
          });
    } catch (RejectedExecutionException e) {
      respond(
          connection,
          HttpAnswer.error(
              503,
              "The endpoint has "
                  + limits.maxQueuedRequests()
                  + " requests waiting, its most; retry shortly"),
          close);
    }
  }

  private void answered(Connection connection, HttpAnswer answer, boolean close) {
    if (connection.channel.isOpen()) {
      respond(connection, answer, close);
    }
  }

  private void respond(Connection connection, HttpAnswer answer, boolean close) {
    connection.out = ResponseBytes.of(answer, connection.head, close);
    // The request's body is answered: let it go. Until the client has read the answer, the whole
    // answer is what the connection holds (its buffer, however much of it went out), so clients
    // that do not read keep new work out (503) instead of holding request and answer unseen by the
    // bound.
    connection.parser.releaseBody();
    account(connection, connection.out.capacity());
    connection.closeAfterWrite = close;
    connection.phase = Connection.Phase.WRITING;
    connection.deadline = deadline(limits.requestTimeout());
    try {
      write(connection);
    } catch (IOException e) {
      close(connection);
    }
  }

  private void write(Connection connection) throws IOException {
    if (connection.phase != Connection.Phase.WRITING) {
      return;
    }
    connection.channel.write(connection.out);
    if (connection.out.hasRemaining()) {
      connection.key.interestOps(SelectionKey.OP_WRITE);
      return;
    }
    if (connection.closeAfterWrite) {
      drain(connection);
      return;
    }
    next(connection);
  }

  private void drain(Connection connection) throws IOException {
    account(connection, 0);
    connection.out = null;
    connection.phase = Connection.Phase.DRAINING;
    connection.deadline = deadline(DRAIN);
    connection.channel.shutdownOutput();
    connection.key.interestOps(SelectionKey.OP_READ);
  }

  /** Kept alive: wait for the next request, which may have arrived with the last one. */
  private void next(Connection connection) {
    account(connection, 0);
    connection.keptAlive = true;
    connection.out = null;
    connection.parser = new RequestParser(limits);
    connection.prechecked = false;
    connection.head = false;
    connection.phase = Connection.Phase.IDLE;
    connection.deadline = deadline(limits.idleTimeout());
    connection.key.interestOps(SelectionKey.OP_READ);
    if (connection.leftover != null) {
      // From the loop, not from here: a request answered at once (refused while the workers are
      // busy) comes back here, so thousands pipelined in one read nested a call each and overflowed
      // the I/O thread's stack. The loop takes it before it selects again; until then the bytes
      // stay on the connection, so that it does not pass for idle.
      completions.add(
          guarded(
              connection,
              () -> {
                byte[] leftover = connection.leftover;
                connection.leftover = null;
                if (leftover != null && connection.channel.isOpen()) {
                  take(connection, leftover, 0, leftover.length);
                }
              }));
    }
  }

  /** {@code work} for the loop to run: a failure of it closes {@code connection}, nothing more. */
  private Runnable guarded(Connection connection, Runnable work) {
    return () -> {
      try {
        work.run();
      } catch (RuntimeException | Error e) {
        LOG.log(LogLevel.ERROR, "A connection failed unexpectedly and was closed", e);
        close(connection);
      }
    };
  }

  private void expire(long now) {
    List<Connection> late = new ArrayList<>();
    for (Connection connection : connections) {
      if (now - connection.deadline > 0) {
        late.add(connection);
      }
    }
    for (Connection connection : late) {
      if (connection.phase == Connection.Phase.READING && connection.parser.started()) {
        respond(connection, timedOut(connection), true);
      } else {
        close(connection);
      }
    }
  }

  private HttpAnswer timedOut(Connection connection) {
    return HttpAnswer.error(
        408,
        connection.prechecked
            ? "The request did not arrive within "
                + limits.requestTimeout().toSeconds()
                + " s; send its body faster, or a smaller one"
            : "The request's headers did not arrive within "
                + limits.headerTimeout().toSeconds()
                + " s");
  }

  /** Counts the bytes a connection holds against the bound of all connections together. */
  private void account(Connection connection, int bytes) {
    bufferedBytes += bytes - connection.bufferedBytes;
    connection.bufferedBytes = bytes;
  }

  private void close(Connection connection) {
    account(connection, 0);
    connections.remove(connection);
    connection.key.cancel();
    closeQuietly(connection.channel);
  }

  private long deadline(java.time.Duration after) {
    return System.nanoTime() + after.toNanos();
  }

  private static void closeQuietly(SocketChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      LOG.debug("Closing a connection failed: " + e);
    }
  }
}
