package dev.statekit.http;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.StatefulFunctions;
import dev.statekit.protocol.RequestReplyHandler;
import dev.statekit.types.TypeName;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * at {@code maxConnections}, connections that sit idle between requests (kept-alive, as a StateFun
 * runtime's pool keeps them; or opened by anyone and reused once a minute) are never let go for a
 * new caller: {@link ServerLoop#accept} answers the newcomer 503 while not one request is in
 * progress, for as long as {@code idleTimeout} (60 s) is renewed. A server may close an idle
 * persistent connection at any time; closing the longest idle one makes room.
 */
class IdleConnectionsAtTheLimitTest {
  private static final TypeName ECHO = TypeName.of("test", "echo");
  private static final Duration WAIT = Duration.ofSeconds(3);

  @Test
  void aNewCallerIsServedWhenTheOpenConnectionsAreAllIdle() throws Exception {
    RequestReplyHandler handler =
        new RequestReplyHandler(
            StatefulFunctions.builder().withFunction(ECHO, (context, message) -> {}).build());
    List<Socket> idle = new ArrayList<>();
    try (FunctionHttpServer server =
        FunctionHttpServer.builder(handler).port(0).maxConnections(2).start()) {
      for (int i = 0; i < 2; i++) {
        Socket socket = new Socket("127.0.0.1", server.port());
        idle.add(socket);
        socket.getOutputStream().write(RawHttp.post("echo", false));
        String answer = RawHttp.readHead(socket, WAIT);
        assertTrue(answer.startsWith("HTTP/1.1 200"), answer); // answered, and now idle
      }

      String answer;
      try (Socket newcomer = new Socket("127.0.0.1", server.port())) {
        newcomer.getOutputStream().write(RawHttp.post("echo", true));
        answer = RawHttp.readHead(newcomer, WAIT);
      } catch (IOException e) {
        answer = "refused: " + e; // the 503 is written and the socket closed at once
      }
      assertTrue(answer.startsWith("HTTP/1.1 200"), "refused while all is idle: " + answer);
    } finally {
      for (Socket socket : idle) {
        socket.close();
      }
    }
  }
}
