package dev.statekit.entry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statekit.Deadline;
import dev.statekit.entry.internal.Answers;
import dev.statekit.entry.internal.EventReader;
import dev.statekit.entry.internal.Routes;
import dev.statekit.entry.internal.SourceArn;
import dev.statekit.entry.internal.SourceGroup;
import dev.statekit.entry.internal.SourceKind;
import dev.statekit.event.BatchConsumer;
import dev.statekit.event.BatchOutcome;
import dev.statekit.event.ScheduledEvent;
import dev.statekit.event.ScheduledTask;
import dev.statekit.protocol.PayloadKind;
import dev.statekit.protocol.RequestReplyHandler;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Tells a payload's shape, hands it to what is registered for it and writes the answer. */
final class PayloadRouter {
  private final RouteTable routes;

  PayloadRouter(RouteTable routes) {
    this.routes = routes;
  }

  byte[] route(byte[] payload, Deadline deadline) {
    if (payload.length > routes.maxPayloadBytes) {
      throw EntryErrors.tooLarge(payload.length, routes.maxPayloadBytes);
    }
    PayloadKind kind = PayloadKind.of(payload);
    if (kind == PayloadKind.TO_FUNCTION) {
      return requireFunctions(PayloadShape.TO_FUNCTION).invoke(payload);
    }
    if (kind != PayloadKind.JSON) {
      throw EntryErrors.unrecognized(payload, "it is neither JSON nor a ToFunction");
    }
    JsonNode json = PayloadJson.parse(payload);
    PayloadShape shape = PayloadShape.of(json);
    if (shape == null) {
      throw EntryErrors.unrecognized(payload, "its JSON fields match none of them");
    }
    return switch (shape) {
      case HTTP_EVENT -> {
        if (routes.httpEvents == null) {
          requireFunctions(shape);
        }
        yield routes.httpEvents.handle(json);
      }
      case ENVELOPE, ENVELOPE_BATCH -> {
        if (routes.envelopes == null) {
          throw noRoute(
              shape,
              "register envelopes(consumer) to apply them (a function runtime's consumer is"
                  + " runtime.envelopeConsumer())");
        }
        yield call(() -> routes.envelopes.invoke(payload), "The envelope consumer");
      }
      case SQS -> batches(shape, EventReader.sqs(json), routes.queues, deadline);
      case KINESIS -> batches(shape, EventReader.kinesis(json), routes.kinesis, deadline);
      case DYNAMODB_STREAM -> batches(shape, EventReader.dynamoDb(json), routes.dynamoDb, deadline);
      case SCHEDULED -> scheduled(EventReader.scheduled(json).withDeadline(deadline));
      case TO_FUNCTION -> throw new IllegalStateException("A ToFunction is never JSON");
    };
  }

  private <R> byte[] batches(
      PayloadShape shape,
      List<SourceGroup<R>> groups,
      Routes<BatchConsumer<R>> consumers,
      Deadline deadline) {
    // Every group's route is checked before any runs, so a misrouted batch changes nothing.
    List<BatchConsumer<R>> found = new ArrayList<>();
    for (SourceGroup<R> group : groups) {
      BatchConsumer<R> consumer = consumers.get(group.source());
      if (consumer == null) {
        throw EntryErrors.noConsumer(shape, group.source().text(), routes.describe());
      }
      found.add(consumer);
    }
    List<String> failed = new ArrayList<>();
    for (int i = 0; i < groups.size(); i++) {
      SourceGroup<R> group = groups.get(i);
      BatchConsumer<R> consumer = found.get(i);
      BatchOutcome outcome =
          call(
              () -> consumer.accept(group.records(), deadline),
              "The consumer of " + group.source());
      failed.addAll(outcome.failedItemIds());
    }
    return Answers.batchItemFailures(failed);
  }

  private byte[] scheduled(ScheduledEvent event) {
    if (routes.tasks.isEmpty()) {
      throw noRoute(
          PayloadShape.SCHEDULED,
          "register scheduled(name, task) (a function runtime's timer sweep is"
              + " scheduled(FunctionRuntime.SWEEP_TASK, runtime.sweepTask()))");
    }
    boolean declared = false;
    for (String resource : event.resources()) {
      SourceArn rule = SourceArn.parseOrNull(SourceKind.RULE, resource);
      declared |= rule != null && routes.rules.get(rule) != null;
    }
    if (!declared && !routes.rules.takesAny()) {
      throw EntryErrors.undeclaredRule(event.resources(), routes.describe());
    }
    Map<String, Object> summaries = new LinkedHashMap<>();
    RuntimeException failure = null;
    // Each task runs even if another failed: a stuck tick must not stop delayed messages.
    for (Map.Entry<String, ScheduledTask> task : routes.tasks.entrySet()) {
      String name = task.getKey();
      try {
        summaries.put(name, task.getValue().run(event));
      } catch (Exception e) {
        summaries.put(name, Map.of("error", String.valueOf(e.getMessage())));
        if (failure == null) {
          failure =
              new IllegalStateException(
                  "The scheduled task '" + name + "' failed: " + e.getMessage(), e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
    return Answers.tasks(summaries);
  }

  private RequestReplyHandler requireFunctions(PayloadShape shape) {
    if (routes.functions == null) {
      throw noRoute(shape, "register functions(registry) to serve StateFun requests");
    }
    return routes.functions;
  }

  private NoRouteException noRoute(PayloadShape shape, String what) {
    return EntryErrors.noRoute(shape, what, routes.describe());
  }

  private interface Call<T> {
    T run() throws Exception;
  }

  private static <T> T call(Call<T> call, String who) {
    try {
      return call.run();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(who + " failed: " + e.getMessage(), e);
    }
  }
}
