package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.http.FunctionHttpServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ServeCommandTest {
  @Test
  void servesTheExamplesAndPrintsItsUrl() throws Exception {
    StringWriter printed = new StringWriter();
    CommandLine command = new CommandLine(new ServeCommand());
    command.setOut(new PrintWriter(printed));
    command.parseArgs("--port", "0");
    ServeCommand serve = command.getCommand();

    try (FunctionHttpServer server = serve.start()) {
      assertTrue(printed.toString().contains("listening on " + server.url()), printed.toString());
      assertTrue(server.url().toString().startsWith("http://127.0.0.1:"), server.url().toString());
      assertTrue(printed.toString().contains("example/greeter  POST "), printed.toString());
      var response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(server.url().resolve("example/greeter"))
                      .header("Content-Type", "application/octet-stream")
                      .POST(HttpRequest.BodyPublishers.ofByteArray(greeterRequest()))
                      .build(),
                  BodyHandlers.ofByteArray());
      assertEquals(200, response.statusCode());
      assertEquals((byte) 0xA2, response.body()[0]);
    }
  }

  @Test
  void aPortInUseFailsClearly() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      StringWriter errors = new StringWriter();
      CommandLine command = new CommandLine(Main.class);
      command.setErr(new PrintWriter(errors));

      int status = command.execute("serve", "--port", String.valueOf(taken.getLocalPort()));

      assertEquals(1, status);
      assertTrue(errors.toString().contains(":" + taken.getLocalPort()), errors.toString());
      assertTrue(errors.toString().contains("choose another port"), errors.toString());
    }
  }

  /** example/greeter/Ada, state seen known without value, one string message "hi". */
  private static byte[] greeterRequest() {
    return java.util.Base64.getDecoder()
        .decode(
            "ogZHChcKB2V4YW1wbGUSB2dyZWV0ZXIaA0FkYRIGCgRzZWVuGiQSIgoYaW8uc3RhdGVmdW4udHlwZXMvc3RyaW5nEAEaBAoCaGk=");
  }
}
