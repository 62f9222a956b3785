package dev.statekit.testservers;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.IntFunction;

/**
 * An external server process bound to a free loopback port, stopped when the JVM exits.
 *
 * <p>The port is picked by binding port 0 and releasing it, so another process could take it in
 * between; a start that dies early is therefore retried on a new port.
 */
final class ServerProcess implements AutoCloseable {
  private static final int ATTEMPTS = 3;
  private static final long READY_TIMEOUT_MILLIS = 30_000;

  private final Process process;
  private final URI endpoint;

  private ServerProcess(Process process, URI endpoint) {
    this.process = process;
    this.endpoint = endpoint;
  }

  /**
   * Starts {@code commandForPort.apply(port)} and waits until it accepts connections.
   *
   * @param label the server's name in messages and in its log file's name
   * @param hint what the user can do instead, appended to every failure message
   */
  static ServerProcess start(
      String label, IntFunction<List<String>> commandForPort, Path logDir, String hint) {
    String lastFailure = "";
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      int port = freePort();
      Path log = logDir.resolve(label + "-" + port + ".log");
      Process process;
      try {
        process =
            new ProcessBuilder(commandForPort.apply(port))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
      } catch (IOException e) {
        throw new ServerUnavailableException(
            label + " could not be started: " + e.getMessage() + ". " + hint, e);
      }
      ServerProcess server = new ServerProcess(process, URI.create("http://127.0.0.1:" + port));
      Runtime.getRuntime().addShutdownHook(new Thread(server::close, label + "-stop"));
      if (server.awaitReady(port)) {
        return server;
      }
      server.close();
      lastFailure = readLog(log);
    }
    throw new ServerUnavailableException(
        label
            + " did not start after "
            + ATTEMPTS
            + " attempts. Its output:\n"
            + lastFailure
            + "\n"
            + hint);
  }

  URI endpoint() {
    return endpoint;
  }

  private boolean awaitReady(int port) {
    long deadline = System.currentTimeMillis() + READY_TIMEOUT_MILLIS;
    while (System.currentTimeMillis() < deadline) {
      if (!process.isAlive()) {
        return false;
      }
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return true;
      } catch (IOException notYet) {
        sleep(50);
      }
    }
    return false;
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  static int freePort() {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress("127.0.0.1", 0));
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new ServerUnavailableException("No free loopback port: " + e.getMessage(), e);
    }
  }

  private static String readLog(Path log) {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
