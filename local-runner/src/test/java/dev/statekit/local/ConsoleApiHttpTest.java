package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The console's API over HTTP with awkward input: ids and addresses as the page encodes them. */
class ConsoleApiHttpTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient client = HttpClient.newHttpClient();
  private InMemoryApp app;
  private HttpServer server;
  private String base;

  @BeforeEach
  void start() throws Exception {
    app = new InMemoryApp(new BackendOptions().template(), Map.of());
    ConsoleApi api = new ConsoleApi(app.console());
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(ConsoleApi.API, api::api);
    server.createContext(ConsoleApi.PAGE, api::page);
    server.start();
    base = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    server.stop(0);
    app.close();
  }

  /** What the page's encodeURIComponent makes of a text. */
  private static String component(String text) {
    return java.net.URLEncoder.encode(text, java.nio.charset.StandardCharsets.UTF_8)
        .replace("+", "%20");
  }

  private HttpResponse<String> get(String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(base + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void anAddressWithPlusPercentQuestionMarkAndHashIsTheAddressShown() throws Exception {
    for (String id : new String[] {"a+b", "100%", "x?y=1", "p#q", "é <img>"}) {
      String address = "example/greeter/" + id;
      HttpResponse<String> answer = get(ConsoleApi.API + "address/" + component(address));
      assertEquals(200, answer.statusCode(), id + ": " + answer.body());
      assertEquals(address, JSON.readTree(answer.body()).get("address").asText(), id);
    }
    // Not an address (the type name takes the segments before the last '/'): bad input, said so.
    HttpResponse<String> wrong =
        get(ConsoleApi.API + "address/" + component("example/greeter/a/b"));
    assertEquals(400, wrong.statusCode(), wrong.body());
    assertTrue(wrong.body().contains("is not an address"), wrong.body());
  }

  @Test
  void aDeadLetterIdIsTakenAsSentAndAnUnknownOneNamed() throws Exception {
    String id = "statekit:dl:a+b%c";
    HttpResponse<String> answer =
        client.send(
            HttpRequest.newBuilder(
                    URI.create(base + ConsoleApi.API + "dead-letters/" + component(id) + "/resend"))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(400, answer.statusCode(), answer.body());
    assertTrue(answer.body().contains("There is no dead letter " + id), answer.body());
  }

  @Test
  void aHugeResendBodyIsRefusedUnread() throws Exception {
    HttpResponse<String> answer =
        client.send(
            HttpRequest.newBuilder(URI.create(base + ConsoleApi.API + "dead-letters/x/resend"))
                .POST(
                    HttpRequest.BodyPublishers.ofString("{\"v\":\"" + "x".repeat(3 << 20) + "\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(413, answer.statusCode(), answer.body());
    JsonNode error = JSON.readTree(answer.body());
    assertTrue(error.get("error").asText().contains("at most"), answer.body());
  }

  @Test
  void malformedJsonAndPathsOutsideTheConsoleAreClearErrors() throws Exception {
    HttpResponse<String> broken =
        client.send(
            HttpRequest.newBuilder(URI.create(base + ConsoleApi.API + "dead-letters/x/resend"))
                .POST(HttpRequest.BodyPublishers.ofString("{{{ not json"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(400, broken.statusCode(), broken.body());
    for (String path :
        new String[] {
          "../ConsoleApi.class", "..%2fConsoleApi.class", "%2e%2e/x.js", "a/../../x.html"
        }) {
      HttpResponse<String> answer = get(ConsoleApi.PAGE + path);
      assertEquals(404, answer.statusCode(), path + ": " + answer.body());
    }
  }

  @Test
  void aNegativeOrNonNumericLimitIsBadInput() throws Exception {
    for (String query : new String[] {"limit=-5", "limit=x", "after=1e3"}) {
      HttpResponse<String> answer = get(ConsoleApi.API + "invocations?" + query);
      assertEquals(400, answer.statusCode(), query + ": " + answer.body());
    }
    assertEquals(200, get(ConsoleApi.API + "invocations?after=0&limit=0").statusCode());
  }
}
