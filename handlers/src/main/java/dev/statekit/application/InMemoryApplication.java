package dev.statekit.application;

import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.bus.InMemoryStandardQueue;
import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.egress.EgressSink;
import dev.statekit.egress.LoggingSink;
import dev.statekit.entry.EntryPoint;
import dev.statekit.entry.EntryPointBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.handlers.Variables;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.InMemoryBatchStore;
import dev.statekit.types.TypeName;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * An application wired with nothing but the JDK ({@link Application#inMemory}): state and timers in
 * memory, the ingress, wake-up and dead-letter queues in memory (poll the ingress queue and hand
 * its messages to the entry point as SQS events, as Lambda's event source mapping would), the queue
 * egresses collected, the other egresses logged, each pipeline over an in-memory batch store.
 *
 * <p>A pipeline reads the Kinesis events of the stream its variable names if the variables name
 * one, else (when it is the only pipeline) of any stream: shards join with their first batch, as
 * there is no stream to list them from. One process runs every batch, none for long: a second is
 * batch timeout enough.
 */
public final class InMemoryApplication {
  private final StatefulFunctions functions;
  private final InMemoryFunctionStore store;
  private final InMemoryMessageBus ingress;
  private final InMemoryMessageBus deadLetters;
  private final InMemoryStandardQueue wakeUps;
  private final Map<TypeName, CollectingEgressSink> egress;
  private final EntryPoint entryPoint;
  private final Map<String, PipelineActivity> pipelines;

  private InMemoryApplication(
      StatefulFunctions functions,
      InMemoryFunctionStore store,
      InMemoryMessageBus ingress,
      InMemoryMessageBus deadLetters,
      InMemoryStandardQueue wakeUps,
      Map<TypeName, CollectingEgressSink> egress,
      EntryPoint entryPoint,
      Map<String, PipelineActivity> pipelines) {
    this.functions = functions;
    this.store = store;
    this.ingress = ingress;
    this.deadLetters = deadLetters;
    this.wakeUps = wakeUps;
    this.egress = Map.copyOf(egress);
    this.entryPoint = entryPoint;
    this.pipelines = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(pipelines));
  }

  static InMemoryApplication wire(
      Application application,
      Variables variables,
      Clock clock,
      dev.statekit.runtime.InvocationObserver observer) {
    StatefulFunctions functions = application.functions(variables);
    InMemoryFunctionStore store = new InMemoryFunctionStore();
    InMemoryMessageBus ingress = new InMemoryMessageBus(clock, Duration.ofSeconds(30));
    InMemoryMessageBus deadLetters = new InMemoryMessageBus(clock, Duration.ofSeconds(30));
    InMemoryStandardQueue wakeUps = new InMemoryStandardQueue(clock, Duration.ofSeconds(30));
    Map<TypeName, CollectingEgressSink> collected = new LinkedHashMap<>();
    EgressRoutes.Builder routes = EgressRoutes.builder();
    // What the queues' SqsEgressSink would refuse on AWS (a record past a queue message) is refused
    // here too: a test that passes in memory passes there.
    EgressSink queueChecks =
        new dev.statekit.aws.sqs.SqsEgressSink(
            new InMemoryMessageBus(clock, Duration.ofSeconds(30)));
    for (EgressQueue queue : application.egressQueues()) {
      CollectingEgressSink sink = new CollectingEgressSink(queueChecks);
      collected.put(queue.egress(), sink);
      routes.route(queue.egress(), sink);
    }
    FunctionRuntime runtime =
        FunctionRuntime.builder(functions)
            .store(store)
            .queue(ingress)
            .deadLetters(deadLetters)
            .wakeUps(wakeUps)
            .egress(routes.otherwise(new LoggingSink()).build())
            .clock(clock)
            .observer(observer)
            .build();
    // In one process nothing but the local runner invokes it: any queue and rule will do.
    EntryPointBuilder entry =
        EntryPoint.builder()
            .functions(functions)
            .envelopes(runtime.envelopeConsumer())
            .httpCalls(runtime.envelopeConsumer())
            .scheduled(FunctionRuntime.SWEEP_TASK, runtime.sweepTask())
            .anyQueue(runtime.queueConsumer())
            .anyScheduleRule();
    Map<String, PipelineActivity> activities = new LinkedHashMap<>();
    for (PipelineDeclaration declared : application.pipelines()) {
      BatchPipeline pipeline =
          declared
              .factory()
              .build(
                  new PipelineWiring(
                      declared.name(),
                      new InMemoryBatchStore(),
                      runtime,
                      variables,
                      Duration.ofSeconds(1),
                      clock,
                      Map.copyOf(collected)));
      PipelineActivity activity = new PipelineActivity(pipeline);
      activities.put(declared.name(), activity);
      Optional<String> stream = variables.optional(declared.streamVariable());
      if (stream.isPresent()) {
        entry.kinesisStream(stream.get(), activity.kinesisConsumer());
      } else if (application.pipelines().size() == 1) {
        entry.anyKinesisStream(activity.kinesisConsumer());
      } else {
        throw new IllegalStateException(
            "In memory, "
                + application.name()
                + " has several pipelines: set "
                + declared.streamVariable()
                + " to the stream pipeline "
                + declared.name()
                + " reads, so its events can be told from the others'");
      }
      entry.scheduled(Application.tickTask(declared.name()), activity.tickTask());
    }
    return new InMemoryApplication(
        functions, store, ingress, deadLetters, wakeUps, collected, entry.build(), activities);
  }

  /** The registry. */
  public StatefulFunctions functions() {
    return functions;
  }

  /** State and timers. */
  public InMemoryFunctionStore store() {
    return store;
  }

  /** The ingress queue. */
  public InMemoryMessageBus ingress() {
    return ingress;
  }

  /** Messages that kept failing, with their errors. */
  public InMemoryMessageBus deadLetters() {
    return deadLetters;
  }

  /**
   * The wake-ups of delayed messages, each hidden until its timer is due: poll it as the ingress
   * queue, and its batches reach the runtime through the entry point.
   */
  public InMemoryStandardQueue wakeUps() {
    return wakeUps;
  }

  /** The records of each egress declared as a queue. */
  public Map<TypeName, CollectingEgressSink> egress() {
    return egress;
  }

  /** Each declared pipeline by name, with what its batches and ticks did. */
  public Map<String, PipelineActivity> pipelines() {
    return pipelines;
  }

  /** The one entry point over all of it. */
  public EntryPoint entryPoint() {
    return entryPoint;
  }
}
