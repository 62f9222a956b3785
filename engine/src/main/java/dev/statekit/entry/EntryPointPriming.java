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
    for (Runnable primer : routes.primers) {
      try {
        primer.run();
      } catch (RuntimeException e) {
        // Priming only loads code: a primer that fails has still loaded what it reached.
        dev.statekit.telemetry.Log.of(EntryPoint.class).debug("A primer failed: " + e, e);
      }
    }
  }
}
