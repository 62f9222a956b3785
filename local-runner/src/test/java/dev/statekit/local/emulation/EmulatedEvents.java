package dev.statekit.local.emulation;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.sqs.SqsClient;

/** What the emulation tests share: reading events handed to a function, and a quiet SQS poller. */
final class EmulatedEvents {
  /** Lambda's invocation payload: the most an event may hold. */
  static final int LAMBDA_PAYLOAD = 6 * 1024 * 1024;

  /** An answer naming no failed item. */
  static final byte[] ALL_DONE = "{\"batchItemFailures\":[]}".getBytes(StandardCharsets.UTF_8);

  private EmulatedEvents() {}

  /** The text values of every {@code "field":"..."} of an event, in order. */
  static List<String> values(byte[] event, String field) {
    String text = new String(event, StandardCharsets.UTF_8);
    String opening = "\"" + field + "\":\"";
    List<String> values = new ArrayList<>();
    for (int at = text.indexOf(opening); at >= 0; at = text.indexOf(opening, at + 1)) {
      int start = at + opening.length();
      values.add(text.substring(start, text.indexOf('"', start)));
    }
    return values;
  }

  /**
   * A poller of the queue {@code name} at {@code url} for {@code function}, with
   * ReportBatchItemFailures, logging nowhere.
   */
  static SqsPoller sqsPoller(
      SqsClient sqs, String url, String name, int batchSize, int windowSeconds, Invoker function) {
    return new SqsPoller(
        sqs,
        new SqsPoller.Settings(
            "Ingress",
            url,
            "arn:aws:sqs:us-east-1:000000000000:" + name,
            "us-east-1",
            batchSize,
            windowSeconds,
            true,
            -1),
        function,
        new Activity(new PrintWriter(new StringWriter())));
  }
}
