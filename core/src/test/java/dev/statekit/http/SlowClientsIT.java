package dev.statekit.http;

import static dev.statekit.protocol.PeerWire.request;
import static dev.statekit.protocol.PeerWire.string;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.TypeName;
import dev.statekit.protocol.RequestReplyHandler;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 12, case 1: stalled clients must not take the endpoint down. */
class SlowClientsIT {
  private static final TypeName ECHO = TypeName.of("test", "echo");

  @Test
  void fourStalledBodiesLeaveTheEndpointAnswering() throws Exception {
    RequestReplyHandler handler =
        new RequestReplyHandler(
            StatefulFunctions.builder().withFunction(ECHO, (context, message) -> {}).build());
    try (FunctionHttpServer server =
        FunctionHttpServer.builder(handler).port(0).threads(4).start()) {
      List<Socket> stalled = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        Socket socket = new Socket("127.0.0.1", server.port());
        OutputStream out = socket.getOutputStream();
        out.write(
            ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\nx")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        stalled.add(socket);
      }
      Thread.sleep(300);
      HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
      var response =
          client.send(
              HttpRequest.newBuilder(server.url())
                  .timeout(Duration.ofSeconds(5))
                  .POST(
                      HttpRequest.BodyPublishers.ofByteArray(
                          request("test", "echo", "a").message(string("hi")).bytes()))
                  .build(),
              BodyHandlers.ofByteArray());
      assertEquals(200, response.statusCode());
      for (Socket socket : stalled) {
        socket.close();
      }
    }
  }
}
