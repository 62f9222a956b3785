package dev.statekit.http;

import static dev.statekit.protocol.PeerWire.request;
import static dev.statekit.protocol.PeerWire.string;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.protocol.RequestReplyHandler;
import dev.statekit.types.TypeName;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code maxBufferedBytes} bounds the request bytes all connections hold together, but a request
 * stops counting once it is answered ({@link ServerLoop#respond} sets its share to 0) while its
 * connection still holds it (the parser, until the answer is written) and the answer beside it. A
 * client that does not read its answers so keeps a whole request and its answer per connection for
 * {@code requestTimeout} (60 s): each new connection is admitted (nothing counts), and the memory
 * held grows with the connections (512 of 32 MiB requests by default: 16 GiB and their answers),
 * far past the bound the endpoint promises, until it runs out of memory for every client.
 */
class UnreadAnswersHoldMemoryTest {
  private static final TypeName KEEP = TypeName.of("test", "keep");
  private static final ValueSpec<String> LAST = ValueSpec.named("last").withUtf8StringType();
  private static final int MIB = 1024 * 1024;

  @Test
  void connectionsThatDoNotReadTheirAnswersHoldNoMoreThanTheBufferedBound() throws Exception {
    Semaphore answered = new Semaphore(0);
    // Keeps what it is sent as its state: the answer carries it back, as large as the request.
    RequestReplyHandler handler =
        new RequestReplyHandler(
            StatefulFunctions.builder()
                .withFunction(
                    KEEP,
                    (context, message) -> {
                      context.storage().set(LAST, message.asUtf8String());
                      answered.release();
                    },
                    LAST)
                .build());
    long bound = 12L * MIB;
    int connections = 24;
    List<Socket> sockets = new ArrayList<>();
    try (FunctionHttpServer server =
        FunctionHttpServer.builder(handler)
            .port(0)
            .maxRequestBytes(4 * MIB)
            .maxBufferedBytes(bound)
            .start()) {
      byte[] body =
          request("test", "keep", "a")
              .state("last")
              .message(string("x".repeat(4 * MIB - 200)))
              .bytes();
      byte[] head =
          ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII);
      long before = usedHeap();
      for (int i = 0; i < connections; i++) {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(4096); // reads nothing: the answer waits in the server
        socket.connect(new InetSocketAddress("127.0.0.1", server.port()));
        sockets.add(socket);
        OutputStream out = socket.getOutputStream();
        try {
          out.write(head);
          out.write(body);
          out.flush();
        } catch (IOException e) {
          continue; // refused and closed while it was sent: the bound held
        }
        // One at a time: the bound has room for three while they are read and answered. A
        // request refused at the bound (503) is what the bound promises: so is it taken.
        assertTrue(runOrRefused(answered, socket), "request " + i + " was neither run nor refused");
        Thread.sleep(100); // and its answer handed to the I/O thread
      }
      Thread.sleep(500); // the last answers handed to the I/O thread
      long held = usedHeap() - before;

      assertTrue(
          held <= 2 * bound,
          connections
              + " connections not reading their answers hold "
              + held / MIB
              + " MiB; maxBufferedBytes is "
              + bound / MIB
              + " MiB");
    } finally {
      for (Socket socket : sockets) {
        socket.close();
      }
    }
  }

  /** Waits until the function ran on the request or the server refused it with a 503. */
  private static boolean runOrRefused(Semaphore answered, Socket socket) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < end) {
      if (answered.tryAcquire(50, TimeUnit.MILLISECONDS)) {
        return true;
      }
      if (socket.getInputStream().available() > 0) {
        byte[] status = socket.getInputStream().readNBytes(12);
        return new String(status, StandardCharsets.US_ASCII).equals("HTTP/1.1 503");
      }
    }
    return false;
  }

  private static long usedHeap() throws InterruptedException {
    Runtime runtime = Runtime.getRuntime();
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(50);
    }
    return runtime.totalMemory() - runtime.freeMemory();
  }
}
