package dev.statekit.local.testapp;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.handlers.Variables;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A handler for the emulation tests: records every payload, and answers a batch with {@code
 * batchItemFailures} naming the SQS messages whose body contains "fail" and the first Kinesis
 * record whose data contains "fail" (once: the retry succeeds).
 */
public final class RecordingHandler implements RequestStreamHandler {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Every payload any instance received, in order. */
  public static final List<JsonNode> PAYLOADS = new CopyOnWriteArrayList<>();

  private static final List<String> FAILED_ONCE = new CopyOnWriteArrayList<>();

  /** Lambda's constructor. */
  public RecordingHandler() {
    this(Variables.fromEnvironment());
  }

  /** The local runner's constructor; reads the variable the test template sets. */
  public RecordingHandler(Variables variables) {
    variables.required("RECORDING_QUEUE_URL", "the queue the test template creates");
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    JsonNode payload = JSON.readTree(input);
    PAYLOADS.add(payload);
    StringBuilder failures = new StringBuilder();
    for (JsonNode record : payload.path("Records")) {
      if (record.has("body") && record.get("body").asText().contains("fail")) {
        append(failures, record.get("messageId").asText());
      } else if (record.has("kinesis")) {
        String data =
            new String(java.util.Base64.getDecoder().decode(record.at("/kinesis/data").asText()));
        String seq = record.at("/kinesis/sequenceNumber").asText();
        if (data.contains("fail") && !FAILED_ONCE.contains(seq) && failures.length() == 0) {
          FAILED_ONCE.add(seq);
          append(failures, seq);
        }
      }
    }
    output.write(("{\"batchItemFailures\":[" + failures + "]}").getBytes());
  }

  private static void append(StringBuilder failures, String id) {
    failures
        .append(failures.length() == 0 ? "" : ",")
        .append("{\"itemIdentifier\":\"")
        .append(id)
        .append("\"}");
  }
}
