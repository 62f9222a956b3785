package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** serve answers request-reply calls on its function URL's /call/ paths (the example app). */
class ServeCallIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static ServeCommand.Running running;

  @BeforeAll
  static void serve() throws Exception {
    CommandLine command = new CommandLine(new ServeCommand());
    command.setOut(new PrintWriter(new StringWriter(), true));
    command.parseArgs("--port", "0", "--in-memory");
    running = ((ServeCommand) command.getCommand()).start();
  }

  @AfterAll
  static void stop() {
    running.close();
  }

  @Test
  void aCallOverHttpAnswersTheCartAndARetryTheSameReply() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    String body =
        "{\"typename\": \"shop/add-item\", \"value\": {\"sku\": \"book\", \"quantity\": 1}}";

    HttpResponse<String> first = call(http, "/call/shop/cart/dora", "dora-add-1", body);
    HttpResponse<String> again = call(http, "/call/shop/cart/dora", "dora-add-1", body);
    HttpResponse<String> failed =
        call(
            http,
            "/call/shop/cart/dora",
            "dora-bad-1",
            body.replace("\"quantity\": 1", "\"quantity\": 0"));

    assertEquals(200, first.statusCode(), first.body());
    JsonNode reply = JSON.readTree(first.body());
    assertEquals(
        "dora-1", reply.at("/reply/value/reservation/reservationId").asText(), first.body());
    assertEquals(200, again.statusCode(), again.body());
    assertTrue(JSON.readTree(again.body()).get("repeat").asBoolean(), again.body());
    assertEquals(reply.get("reply"), JSON.readTree(again.body()).get("reply"));
    assertEquals(500, failed.statusCode(), failed.body());
    assertTrue(failed.body().contains("a quantity of at least 1"), failed.body());
  }

  private static HttpResponse<String> call(HttpClient http, String path, String key, String body)
      throws Exception {
    return http.send(
        HttpRequest.newBuilder(running.server().url().resolve(path.substring(1)))
            .header("Content-Type", "application/json")
            .header("Idempotency-Key", key)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
