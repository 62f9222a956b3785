package dev.statekit.local;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statekit.local.emulation.Activity;
import dev.statekit.local.emulation.KinesisPoller;
import dev.statekit.local.emulation.ScheduleTicker;
import dev.statekit.local.emulation.SqsMappingRules;
import dev.statekit.local.emulation.SqsPoller;
import dev.statekit.local.template.EventSource;
import dev.statekit.local.template.FunctionDef;
import dev.statekit.local.template.Intrinsics;
import dev.statekit.local.template.LocalResource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The event sources of every function of a deployment, emulated on background threads: each SQS
 * event polls its queue, each Kinesis event reads its stream, each schedule fires.
 */
final class EventSources implements AutoCloseable {
  private final List<Runnable> stoppers = new ArrayList<>();
  private final List<ScheduleTicker> tickers = new ArrayList<>();
  private final List<String> described = new ArrayList<>();

  private EventSources() {}

  /**
   * Starts them all.
   *
   * @param tick if not null, fires every schedule at this period instead of the template's rate
   * @param retryAfterSeconds if not negative, failed SQS messages come back after this many seconds
   */
  static EventSources start(
      LocalDeployment deployment, Activity activity, Duration tick, int retryAfterSeconds) {
    EventSources sources = new EventSources();
    String region = deployment.backend().variables().get("AWS_REGION");
    for (FunctionDef function : deployment.template().functions()) {
      for (EventSource event : function.events()) {
        String label = function.logicalId() + "." + event.name();
        LocalFunction target = deployment.function(function.logicalId());
        if (!event.enabled()) {
          sources.described.add(
              label + ": switched off in the template (Enabled: false, or State: DISABLED)");
          continue;
        }
        if (!target.takes(event.type())) {
          sources.described.add(
              label
                  + ": not emulated: the handler's entry point has no route for "
                  + event.type()
                  + " events");
          continue;
        }
        switch (event.type()) {
          case "SQS" -> {
            deployment
                .template()
                .resource(event.sourceLogicalId())
                .ifPresent(resource -> SqsMappingRules.check(function, event, resource));
            LocalResource queue = deployment.resources().get(event.sourceLogicalId());
            SqsPoller poller =
                new SqsPoller(
                    deployment.backend().sqsClient(),
                    new SqsPoller.Settings(
                        label,
                        queue.ref(),
                        queue.attribute("Arn"),
                        region,
                        (int) event.number("BatchSize", 10),
                        (int) event.number("MaximumBatchingWindowInSeconds", 0),
                        event.reportsBatchItemFailures(),
                        retryAfterSeconds),
                    target::invoke,
                    activity);
            sources.run(label, poller, poller::stop, "polls " + queue.ref());
          }
          case "Kinesis" -> {
            LocalResource stream = deployment.resources().get(event.sourceLogicalId());
            KinesisPoller poller =
                new KinesisPoller(
                    deployment.backend().kinesisClient(),
                    new KinesisPoller.Settings(
                        label,
                        stream.ref(),
                        stream.attribute("Arn"),
                        region,
                        (int) event.number("BatchSize", 100),
                        (int) event.number("MaximumBatchingWindowInSeconds", 0),
                        "LATEST".equals(event.properties().path("StartingPosition").asText()),
                        event.reportsBatchItemFailures(),
                        (int) event.number("MaximumRetryAttempts", -1),
                        onFailure(deployment, event, label, sources)),
                    target::invoke,
                    activity);
            sources.run(label, poller, poller::stop, "reads the shards of " + stream.ref());
          }
          case "Schedule" -> {
            Duration period =
                tick != null
                    ? tick
                    : ScheduleTicker.rate(event.properties().path("Schedule").asText());
            JsonNode named = event.properties().get("Name");
            String rule = named == null ? label : deployment.resources().resolve(named, region);
            ScheduleTicker ticker =
                new ScheduleTicker(label, rule, period, region, target::invoke, activity);
            sources.tickers.add(ticker);
            sources.run(label, ticker, ticker::stop, "fires every " + period.toSeconds() + " s");
          }
          default ->
              sources.described.add(label + ": " + event.type() + " events are not emulated");
        }
      }
    }
    return sources;
  }

  /**
   * The event's {@code DestinationConfig.OnFailure} as a sender of given-up batches' records: an
   * SQS queue of the template; null (said in the description) for none or one not emulated.
   */
  private static Consumer<String> onFailure(
      LocalDeployment deployment, EventSource event, String label, EventSources sources) {
    JsonNode destination = event.properties().at("/DestinationConfig/OnFailure/Destination");
    if (destination.isMissingNode()) {
      return null;
    }
    String id = Intrinsics.referencedLogicalId(destination);
    LocalResource queue = id == null ? null : deployment.resources().get(id);
    if (queue == null || !queue.type().equals("AWS::SQS::Queue")) {
      sources.described.add(
          label + ": its OnFailure destination is not emulated (only a queue of the template is)");
      return null;
    }
    String url = queue.ref();
    return record ->
        deployment.backend().sqsClient().sendMessage(b -> b.queueUrl(url).messageBody(record));
  }

  private void run(String label, Runnable loop, Runnable stop, String what) {
    Thread thread = new Thread(loop, "statekit-" + label);
    thread.setDaemon(true);
    thread.start();
    stoppers.add(stop);
    described.add(label + ": " + what);
  }

  /** One line per event source. */
  List<String> describe() {
    return described;
  }

  /** The schedules, to fire at will. */
  List<ScheduleTicker> tickers() {
    return tickers;
  }

  @Override
  public void close() {
    stoppers.forEach(Runnable::run);
  }
}
