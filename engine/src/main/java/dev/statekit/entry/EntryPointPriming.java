package dev.statekit.entry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statekit.entry.internal.Answers;
import dev.statekit.entry.internal.EventReader;
import dev.statekit.entry.internal.PrimingSamples;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Loads what each payload path needs before a SnapStart snapshot, without routing anything. */
final class EntryPointPriming {
  private EntryPointPriming() {}

  static void prime(RouteTable routes) {
    for (String sample : PrimingSamples.JSON) {
      JsonNode json = PayloadJson.parse(sample.getBytes(StandardCharsets.UTF_8));
      switch (PayloadShape.of(json)) {
        case HTTP_EVENT -> {
          if (routes.httpEvents != null) {
            routes.httpEvents.handle(json); // a GET: answered 405 before any function is looked up
          }
        }
        case SQS -> EventReader.sqs(json);
        case KINESIS -> EventReader.kinesis(json);
        case DYNAMODB_STREAM -> EventReader.dynamoDb(json);
        case SCHEDULED -> EventReader.scheduled(json);
        default -> {}
      }
    }
    // The JSON types' readers and writers, made lazily on a cold start without SnapStart.
    Types.prepareJsonTypes();
    Answers.batchItemFailures(List.of("primed"));
    Answers.tasks(Map.of("primed", Map.of("n", 0)));
    // A primer's failure is not swallowed: it builds what payloads need from the configuration
    // (a pipeline's factory reads its variables then), and one that cannot must fail the snapshot,
    // not every batch of the published version.
    for (Runnable primer : routes.primers) {
      primer.run();
    }
  }
}
