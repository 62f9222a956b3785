package dev.statekit.local.testapp;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.handlers.Variables;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records the data of every Kinesis record it is handed (as "stream:data"); throws for a batch
 * holding "poison"; answers {@code batchItemFailures} naming every record holding "flaky".
 */
public final class PoisonHandler implements RequestStreamHandler {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** "streamName:data" of every record handed over, in order. */
  public static final List<String> SEEN = new CopyOnWriteArrayList<>();

  /** The local runner's constructor. */
  public PoisonHandler(Variables variables) {}

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    JsonNode payload = JSON.readTree(input);
    StringBuilder failures = new StringBuilder();
    boolean poison = false;
    for (JsonNode record : payload.path("Records")) {
      String arn = record.path("eventSourceARN").asText();
      String stream = arn.substring(arn.lastIndexOf('/') + 1);
      String data =
          new String(
              Base64.getDecoder().decode(record.at("/kinesis/data").asText()),
              StandardCharsets.UTF_8);
      SEEN.add(stream + ":" + data);
      poison |= data.contains("poison");
      if (data.contains("flaky")) {
        failures
            .append(failures.length() == 0 ? "" : ",")
            .append("{\"itemIdentifier\":\"")
            .append(record.at("/kinesis/sequenceNumber").asText())
            .append("\"}");
      }
    }
    if (poison) {
      throw new IllegalStateException("a poison record");
    }
    output.write(("{\"batchItemFailures\":[" + failures + "]}").getBytes(StandardCharsets.UTF_8));
  }
}
