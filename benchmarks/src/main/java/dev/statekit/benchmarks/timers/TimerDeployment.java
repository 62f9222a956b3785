package dev.statekit.benchmarks.timers;

import dev.statekit.aws.ApplicationTable;
import dev.statekit.aws.dynamodb.DynamoDbFunctionStore;
import dev.statekit.aws.sqs.SqsMessageBus;
import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.bus.InMemoryStandardQueue;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.entry.EntryPoint;
import dev.statekit.entry.EntryPointBuilder;
import dev.statekit.local.emulation.Activity;
import dev.statekit.local.emulation.InMemoryQueuePoller;
import dev.statekit.local.emulation.PollLoop;
import dev.statekit.local.emulation.ScheduleTicker;
import dev.statekit.local.emulation.SqsPoller;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * One deployment of the timer function with the local runner's emulated event sources: the ingress
 * queue's and the wake-up queue's event source mappings (SQS pollers on ElasticMQ, or the in-memory
 * pollers) and the one-minute schedule of the sweep, each on a thread of its own, invoking the one
 * entry point as Lambda would.
 */
final class TimerDeployment implements AutoCloseable {
  private static final String RULE = "timers-bench-tick";
  private static final String REGION = "us-east-1";

  final String name;
  final FunctionRuntime runtime;
  final Lateness lateness;
  private final List<Runnable> stoppers = new ArrayList<>();

  /**
   * On Dynoxide and ElasticMQ; with {@code wakeUps} the runtime has a wake-up queue, without it
   * delayed messages go out with the sweep (as before wake-ups existed).
   */
  static TimerDeployment servers(
      String name, DynamoDbClient dynamoDb, SqsClient sqs, boolean wakeUps, Activity activity) {
    String table = "timers-" + UUID.randomUUID();
    ApplicationTable.createIfAbsent(dynamoDb, table);
    String ingress = queue(sqs, name + "-ingress", true);
    String deadLetters = queue(sqs, name + "-dlq", true);
    String wakeUpQueue = wakeUps ? queue(sqs, name + "-wake", false) : null;
    Lateness lateness = new Lateness();
    FunctionRuntime.Builder builder =
        FunctionRuntime.builder(TimerFunction.registry())
            .store(new DynamoDbFunctionStore(dynamoDb, table))
            .queue(new SqsMessageBus(sqs, ingress))
            .deadLetters(new SqsMessageBus(sqs, deadLetters))
            .egress(EgressRoutes.builder().route(TimerFunction.FIRED, lateness).build());
    if (wakeUps) {
      builder.wakeUps(new SqsMessageBus(sqs, wakeUpQueue));
    }
    TimerDeployment deployment = new TimerDeployment(name, builder.build(), lateness);
    FunctionRuntime runtime = deployment.runtime;
    EntryPointBuilder routes =
        EntryPoint.builder()
            .envelopes(runtime.envelopeConsumer())
            .queue(ingress, runtime.queueConsumer())
            .scheduled(FunctionRuntime.SWEEP_TASK, runtime.sweepTask())
            .scheduleRule(RULE);
    if (wakeUps) {
      routes.queue(wakeUpQueue, runtime.queueConsumer());
    }
    EntryPoint entry = routes.build();
    deployment.poll(sqs, name + ".Ingress", ingress, entry, activity);
    if (wakeUps) {
      deployment.poll(sqs, name + ".WakeUps", wakeUpQueue, entry, activity);
    }
    deployment.tick(entry, activity);
    return deployment;
  }

  /** In memory, with the in-memory queues' pollers. */
  static TimerDeployment inMemory(String name, Activity activity) {
    Clock clock = Clock.systemUTC();
    InMemoryMessageBus ingress = new InMemoryMessageBus(clock, Duration.ofSeconds(30));
    InMemoryStandardQueue wakeUps = new InMemoryStandardQueue(clock, Duration.ofSeconds(30));
    Lateness lateness = new Lateness();
    FunctionRuntime runtime =
        FunctionRuntime.builder(TimerFunction.registry())
            .store(new InMemoryFunctionStore())
            .queue(ingress)
            .deadLetters(new InMemoryMessageBus(clock, Duration.ofSeconds(30)))
            .wakeUps(wakeUps)
            .egress(EgressRoutes.builder().route(TimerFunction.FIRED, lateness).build())
            .build();
    TimerDeployment deployment = new TimerDeployment(name, runtime, lateness);
    EntryPoint entry =
        EntryPoint.builder()
            .envelopes(runtime.envelopeConsumer())
            .scheduled(FunctionRuntime.SWEEP_TASK, runtime.sweepTask())
            .anyQueue(runtime.queueConsumer())
            .scheduleRule(RULE)
            .build();
    deployment.start(
        name + ".Ingress",
        new InMemoryQueuePoller(name + ".Ingress", ingress, entry::invoke, activity, -1));
    deployment.start(
        name + ".WakeUps",
        new InMemoryQueuePoller(name + ".WakeUps", wakeUps, entry::invoke, activity, -1));
    deployment.tick(entry, activity);
    return deployment;
  }

  private TimerDeployment(String name, FunctionRuntime runtime, Lateness lateness) {
    this.name = name;
    this.runtime = runtime;
    this.lateness = lateness;
  }

  private void poll(SqsClient sqs, String label, String url, EntryPoint entry, Activity activity) {
    String arn =
        sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
            .attributes()
            .get(QueueAttributeName.QUEUE_ARN);
    start(
        label,
        new SqsPoller(
            sqs,
            new SqsPoller.Settings(label, url, arn, REGION, 10, 0, true, -1),
            entry::invoke,
            activity));
  }

  private void tick(EntryPoint entry, Activity activity) {
    ScheduleTicker ticker =
        new ScheduleTicker(
            name + ".Tick", RULE, Duration.ofMinutes(1), REGION, entry::invoke, activity);
    Thread thread = new Thread(ticker, "timers-" + name + ".Tick");
    thread.setDaemon(true);
    thread.start();
    stoppers.add(ticker::stop);
  }

  private void start(String label, PollLoop loop) {
    Thread thread = new Thread(loop, "timers-" + label);
    thread.setDaemon(true);
    thread.start();
    stoppers.add(loop::stop);
  }

  private static String queue(SqsClient sqs, String name, boolean fifo) {
    String queueName = name + "-" + UUID.randomUUID().toString().substring(0, 8);
    Map<QueueAttributeName, String> attributes =
        fifo
            ? Map.of(
                QueueAttributeName.FIFO_QUEUE, "true", QueueAttributeName.VISIBILITY_TIMEOUT, "30")
            : Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "30");
    return sqs.createQueue(
            b -> b.queueName(fifo ? queueName + ".fifo" : queueName).attributes(attributes))
        .queueUrl();
  }

  @Override
  public void close() {
    stoppers.forEach(Runnable::run);
  }
}
