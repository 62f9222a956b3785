package dev.statekit.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * What a running {@code serve} leaves in {@code .statekit/serve.json} in its working directory, so
 * that {@code invoke}, {@code send}, {@code state} and {@code replay} started beside it use its
 * servers and its functions: its process, its URL and its backend's endpoints.
 *
 * @param pid the serve process
 * @param url where it listens
 * @param backend its backend
 * @param prefix the names of its resources start with this
 */
record RunningServe(long pid, URI url, Backend backend, String prefix) {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final Path FILE = Path.of(".statekit", "serve.json");

  /** The serve running from this directory, if its process is alive. */
  static Optional<RunningServe> find() {
    if (!Files.isRegularFile(FILE)) {
      return Optional.empty();
    }
    try {
      JsonNode node = JSON.readTree(FILE.toFile());
      long pid = node.path("pid").asLong();
      if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
        Backend.Mode mode = Backend.Mode.valueOf(node.path("mode").asText());
        return Optional.of(
            new RunningServe(
                pid,
                URI.create(node.path("url").asText()),
                Backend.at(mode, uri(node, "dynamodb"), uri(node, "sqs"), uri(node, "kinesis")),
                node.path("prefix").asText("statekit")));
      }
    } catch (IOException | IllegalArgumentException e) {
      // An unreadable or stale file: as if no serve ran.
    }
    return Optional.empty();
  }

  /** Records this process as the running serve. */
  void write() throws IOException {
    ObjectNode node = JSON.createObjectNode();
    node.put("pid", pid);
    node.put("url", url.toString());
    node.put("mode", backend.mode().name());
    node.put("prefix", prefix);
    if (backend.dynamoDb() != null) {
      node.put("dynamodb", backend.dynamoDb().toString());
      node.put("sqs", backend.sqs().toString());
      node.put("kinesis", backend.kinesis().toString());
    }
    Files.createDirectories(FILE.getParent());
    Files.writeString(FILE, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(node));
  }

  /** Removes the record if it is this process's. */
  void delete() {
    try {
      if (find().map(s -> s.pid() == pid).orElse(false)) {
        Files.deleteIfExists(FILE);
      }
    } catch (IOException e) {
      // Left behind: the next find() sees a dead pid and ignores it.
    }
  }

  /** Invokes {@code function} through the serve's Lambda invoke API. */
  Answer invoke(String function, byte[] payload) throws IOException, InterruptedException {
    HttpResponse<byte[]> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        url.resolve("2015-03-31/functions/" + function + "/invocations"))
                    .timeout(Duration.ofMinutes(2))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(payload))
                    .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    if (response.statusCode() != 200) {
      // Refused by the serve (an unknown function, a payload over Lambda's limit): not an answer
      // of the function, which a caller would read as having no failures.
      throw new IllegalArgumentException(
          "The serve answered "
              + response.statusCode()
              + ": "
              + new String(response.body(), java.nio.charset.StandardCharsets.UTF_8).trim());
    }
    return new Answer(
        response.body(), response.headers().firstValue("X-Amz-Function-Error").isPresent());
  }

  /** GETs a path of the serve's control API. */
  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(url.resolve(path)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /**
   * What an invocation answered.
   *
   * @param body the answer, or Lambda's error document
   * @param failed true if the function threw
   */
  record Answer(byte[] body, boolean failed) {}

  private static URI uri(JsonNode node, String field) {
    return node.hasNonNull(field) ? URI.create(node.get(field).asText()) : null;
  }
}
