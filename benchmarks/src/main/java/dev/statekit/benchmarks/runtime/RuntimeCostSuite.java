package dev.statekit.benchmarks.runtime;

import dev.statekit.aws.dynamodb.DynamoDbFunctionStore;
import dev.statekit.aws.internal.CostMeter;
import dev.statekit.aws.sqs.SqsMessageBus;
import dev.statekit.benchmarks.Result;
import dev.statekit.benchmarks.Suite;
import dev.statekit.bus.QueueMessage;
import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.function.Address;
import dev.statekit.function.MessageBuilder;
import dev.statekit.runtime.CallResult;
import dev.statekit.runtime.DirectInvocation;
import dev.statekit.runtime.DirectResult;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.Ingress;
import dev.statekit.runtime.QueueBatchResult;
import dev.statekit.types.TypeName;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * What a message costs on the self-hosted runtime, in DynamoDB requests and capacity units as the
 * responses report them, SQS requests, and sequential round trips per batch, counted by a {@link
 * CostMeter} on the clients; beside the naive design (a read and a write per message, one after
 * another) on the same items. Against Dynoxide and ElasticMQ.
 */
public final class RuntimeCostSuite implements Suite {
  /** Unmeasured rounds first: they create the items and warm the JIT; then the steady state. */
  private static final int WARMUP_ROUNDS = 3;

  private static final int ROUNDS = 7;

  @Override
  public String name() {
    return "runtime-cost";
  }

  @Override
  public String description() {
    return "DynamoDB requests, capacity units and round trips per message of the self-hosted"
        + " runtime, against the naive design (read + write per message, serially)";
  }

  @Override
  public List<Result> run(PrintStream log) throws InterruptedException {
    CostBench bench = new CostBench();
    log.println(
        "  every request gets "
            + CostBench.NETWORK_MILLIS
            + " ms of network delay; capacity as the responses report it");
    DynamoDbFunctionStore store = new DynamoDbFunctionStore(bench.dynamoDb, bench.table);
    String ingress = bench.fifoQueue("cost-ingress");
    FunctionRuntime runtime =
        FunctionRuntime.builder(BenchCounter.registry())
            .store(store)
            .queue(new SqsMessageBus(bench.sqs, ingress))
            .deadLetters(new SqsMessageBus(bench.sqs, bench.fifoQueue("cost-dlq")))
            // The teller's records are collected in memory: what they cost is the runtime's own.
            .egress(
                EgressRoutes.builder()
                    .route(BenchCounter.EVENTS, new CollectingEgressSink())
                    .build())
            .build();
    NaiveRuntime naive = new NaiveRuntime(store);
    List<Result> results = new ArrayList<>();
    if (wanted("distinct100")) {
      results.addAll(direct(bench, runtime, naive, "distinct100", BenchCounter.TYPE, 100, 1, log));
    }
    if (wanted("one-address100")) {
      results.addAll(
          direct(bench, runtime, naive, "one-address100", BenchCounter.TYPE, 1, 100, log));
    }
    if (wanted("ten-by-ten")) {
      results.addAll(direct(bench, runtime, naive, "ten-by-ten", BenchCounter.TYPE, 10, 10, log));
    }
    if (wanted("fifo10")) {
      results.addAll(fifo(bench, runtime, naive, ingress, "fifo10", BenchCounter.TYPE, log));
    }
    if (wanted("distinct100-egress")) {
      results.addAll(
          direct(bench, runtime, naive, "distinct100-egress", BenchCounter.TELLER, 100, 1, log));
    }
    if (wanted("fifo10-egress")) {
      results.addAll(
          fifo(bench, runtime, naive, ingress, "fifo10-egress", BenchCounter.TELLER, log));
    }
    if (wanted("delayed10")) {
      results.addAll(delayed(bench, store, log));
    }
    if (wanted("call10")) {
      results.addAll(calls(bench, runtime, "call10", 10, 1, log));
    }
    if (wanted("call-one-address10")) {
      results.addAll(calls(bench, runtime, "call-one-address10", 1, 10, log));
    }
    return results;
  }

  private static final List<String> CASES =
      List.of(
          "distinct100",
          "one-address100",
          "ten-by-ten",
          "fifo10",
          "distinct100-egress",
          "fifo10-egress",
          "delayed10",
          "call10",
          "call-one-address10");

  private List<String> cases = CASES;

  /** {@code --cases a,b}: only those cases (default: every one). */
  @Override
  public void options(List<String> options) {
    if (options.isEmpty()) {
      return;
    }
    if (options.size() != 2 || !options.get(0).equals("--cases")) {
      throw new IllegalArgumentException(
          "runtime-cost takes --cases NAME[,NAME...] (of " + CASES + "), got " + options);
    }
    List<String> chosen = List.of(options.get(1).split(","));
    for (String name : chosen) {
      if (!CASES.contains(name)) {
        throw new IllegalArgumentException(
            "runtime-cost has no case '" + name + "'; its cases are " + CASES);
      }
    }
    cases = chosen;
  }

  private boolean wanted(String name) {
    return cases.contains(name);
  }

  /**
   * Request-reply calls, one at a time as callers make them, with keys and replies of about 100
   * bytes: {@code addresses} addresses with {@code each} calls, then every call retried with its
   * key (as after a lost answer); beside the same messages as keyed direct invokes, one at a time,
   * of a function that sends no reply.
   */
  private List<Result> calls(
      CostBench bench,
      FunctionRuntime runtime,
      String name,
      int addresses,
      int each,
      PrintStream log) {
    String run = UUID.randomUUID().toString().substring(0, 8);
    Measure calls = new Measure();
    Measure retries = new Measure();
    Measure invokes = new Measure();
    for (int round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      List<DirectInvocation> called = new ArrayList<>();
      List<DirectInvocation> invoked = new ArrayList<>();
      for (int a = 0; a < addresses; a++) {
        for (int m = 0; m < each; m++) {
          String key = run + "-" + round + "-" + a + "-" + m;
          called.add(
              DirectInvocation.of(
                  MessageBuilder.forAddress(
                          Address.of(BenchCounter.REPLIER, name + "-" + run + "-" + a))
                      .withValue(1L)
                      .build(),
                  key));
          invoked.add(
              DirectInvocation.of(
                  MessageBuilder.forAddress(
                          Address.of(BenchCounter.TYPE, name + "-invoke-" + run + "-" + a))
                      .withValue(1L)
                      .build(),
                  key));
        }
      }
      bench.meter.reset();
      for (DirectInvocation call : called) {
        CallResult result = runtime.call(call);
        if (result.status() != CallResult.Status.APPLIED || !result.replied()) {
          throw new IllegalStateException("A benchmark call failed: " + result);
        }
      }
      CostMeter.Snapshot callCost = bench.meter.snapshot();
      bench.meter.reset();
      for (DirectInvocation call : called) {
        CallResult result = runtime.call(call);
        if (!result.repeat() || !result.replied()) {
          throw new IllegalStateException("A retried benchmark call was no repeat: " + result);
        }
      }
      CostMeter.Snapshot retryCost = bench.meter.snapshot();
      bench.meter.reset();
      for (DirectInvocation invocation : invoked) {
        DirectResult result = runtime.invoke(invocation);
        if (!result.succeeded()) {
          throw new IllegalStateException("A benchmark message failed: " + result);
        }
      }
      CostMeter.Snapshot invokeCost = bench.meter.snapshot();
      if (round >= WARMUP_ROUNDS) {
        calls.add(callCost, called.size());
        retries.add(retryCost, called.size());
        invokes.add(invokeCost, invoked.size());
      }
    }
    log.printf(
        "  %-18s calls:   %s%n  %-18s retries: %s%n  %-18s keyed invokes without reply: %s%n",
        name, calls, "", retries, "", invokes);
    Result ours = calls.result(name(), name);
    ours.with(
        "capacity_ratio_to_invoke", calls.capacityPerMessage() / invokes.capacityPerMessage());
    return List.of(
        ours, retries.result(name(), name + "-retried"), invokes.result(name(), name + "-invoke"));
  }

  /** A direct-invoke batch: {@code addresses} addresses with {@code each} messages. */
  private List<Result> direct(
      CostBench bench,
      FunctionRuntime runtime,
      NaiveRuntime naive,
      String name,
      TypeName type,
      int addresses,
      int each,
      PrintStream log) {
    String run = UUID.randomUUID().toString().substring(0, 8);
    Measure ours = new Measure();
    Measure theirs = new Measure();
    for (int round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      List<DirectInvocation> batch = new ArrayList<>();
      List<Address> targets = new ArrayList<>();
      for (int a = 0; a < addresses; a++) {
        Address target = Address.of(type, name + "-" + run + "-" + a);
        for (int m = 0; m < each; m++) {
          // Idempotency keys, as a client that retries would send them.
          batch.add(
              DirectInvocation.of(
                  MessageBuilder.forAddress(target).withValue(1L).build(),
                  run + "-" + round + "-" + a + "-" + m));
          targets.add(Address.of(BenchCounter.TYPE, "naive-" + target.id()));
        }
      }
      bench.meter.reset();
      for (DirectResult result : runtime.invoke(batch)) {
        if (!result.succeeded()) {
          throw new IllegalStateException("A benchmark message failed: " + result);
        }
      }
      CostMeter.Snapshot statekit = bench.meter.snapshot();
      bench.meter.reset();
      naive.process(targets);
      CostMeter.Snapshot naiveCost = bench.meter.snapshot();
      log.printf(
          "  %-15s round %d: %d round trips, %d DynamoDB requests%n",
          name, round, statekit.roundTrips(), statekit.requestsTo("DynamoDb"));
      if (round >= WARMUP_ROUNDS) {
        ours.add(statekit, batch.size());
        theirs.add(naiveCost, batch.size());
      }
    }
    return report(name, ours, theirs, log);
  }

  /** An SQS FIFO batch of 10 messages to 10 addresses, received and deleted as Lambda does. */
  private List<Result> fifo(
      CostBench bench,
      FunctionRuntime runtime,
      NaiveRuntime naive,
      String ingress,
      String name,
      TypeName type,
      PrintStream log) {
    String run = UUID.randomUUID().toString().substring(0, 8);
    Measure ours = new Measure();
    Measure theirs = new Measure();
    for (int round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
      List<Address> targets = new ArrayList<>();
      for (int a = 0; a < 10; a++) {
        Address target = Address.of(type, name + "-" + run + "-" + a);
        targets.add(Address.of(BenchCounter.TYPE, "naive-" + target.id()));
        entries.add(
            SendMessageBatchRequestEntry.builder()
                .id(Integer.toString(a))
                .messageGroupId(Ingress.groupId(target))
                .messageDeduplicationId(run + "-" + round + "-" + a)
                .messageBody(
                    Ingress.envelope(MessageBuilder.forAddress(target).withValue(1L).build()))
                .build());
      }
      bench.sqs.sendMessageBatch(b -> b.queueUrl(ingress).entries(entries));
      bench.meter.reset();
      List<Message> received = receive(bench, ingress);
      CostMeter.Snapshot receiving = bench.meter.snapshot();
      bench.meter.reset();
      QueueBatchResult result = runtime.processQueueBatch(messages(received));
      if (!result.failedMessageIds().isEmpty()) {
        throw new IllegalStateException("A benchmark message failed: " + result);
      }
      CostMeter.Snapshot statekit = bench.meter.snapshot();
      bench.meter.reset();
      bench.sqs.deleteMessageBatch(
          b ->
              b.queueUrl(ingress)
                  .entries(
                      received.stream()
                          .map(
                              m ->
                                  DeleteMessageBatchRequestEntry.builder()
                                      .id(m.messageId())
                                      .receiptHandle(m.receiptHandle())
                                      .build())
                          .toList()));
      CostMeter.Snapshot deleting = bench.meter.snapshot();
      bench.meter.reset();
      naive.process(targets);
      CostMeter.Snapshot naiveCost = bench.meter.snapshot();
      if (round >= WARMUP_ROUNDS) {
        ours.add(statekit, received.size());
        ours.sqsRequests += receiving.requestsTo("Sqs") + deleting.requestsTo("Sqs");
        theirs.add(naiveCost, targets.size());
        theirs.sqsRequests += receiving.requestsTo("Sqs") + deleting.requestsTo("Sqs");
      }
    }
    return report(name, ours, theirs, log);
  }

  /**
   * Ten delayed messages of 1 s to ten addresses, from the direct invoke that sets them to the
   * commit that applies them: with wake-ups (put at the commit, received from the standard queue,
   * the message sent to the FIFO queue) beside the sweep alone (one sweep sends them). SQS counts
   * every send, receive and delete of both queues.
   */
  private List<Result> delayed(CostBench bench, DynamoDbFunctionStore store, PrintStream log)
      throws InterruptedException {
    String ingress = bench.fifoQueue("delayed-ingress");
    String wakeUpQueue = bench.standardQueue("delayed-wake");
    FunctionRuntime.Builder builder =
        FunctionRuntime.builder(BenchCounter.registry())
            .store(store)
            .queue(new SqsMessageBus(bench.sqs, ingress))
            .deadLetters(new SqsMessageBus(bench.sqs, bench.fifoQueue("delayed-dlq")));
    FunctionRuntime sweepOnly = builder.build();
    FunctionRuntime onTime = builder.wakeUps(new SqsMessageBus(bench.sqs, wakeUpQueue)).build();
    Measure wakeUps = new Measure();
    Measure sweep = new Measure();
    for (int round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      for (boolean woken : new boolean[] {true, false}) {
        FunctionRuntime runtime = woken ? onTime : sweepOnly;
        String run = UUID.randomUUID().toString().substring(0, 8);
        List<DirectInvocation> sets = new ArrayList<>();
        for (int a = 0; a < 10; a++) {
          Address target = Address.of(BenchCounter.DELAYER, "delayed-" + run + "-" + a);
          sets.add(
              DirectInvocation.of(
                  MessageBuilder.forAddress(target).withValue("set").build(), run + "-" + a));
        }
        bench.meter.reset();
        for (DirectResult result : runtime.invoke(sets)) {
          if (!result.succeeded()) {
            throw new IllegalStateException("A benchmark message failed: " + result);
          }
        }
        CostMeter.Snapshot setting = bench.meter.snapshot();
        Thread.sleep(1_100);
        bench.meter.reset();
        if (woken) {
          List<Message> arrived = receive(bench, wakeUpQueue);
          QueueBatchResult handled = runtime.processQueueBatch(messages(arrived));
          if (!handled.failedMessageIds().isEmpty()) {
            throw new IllegalStateException("A wake-up failed: " + handled);
          }
          delete(bench, wakeUpQueue, arrived);
        } else if (runtime.sweepTimers().sent() != 10) {
          throw new IllegalStateException("The sweep did not send the 10 due timers");
        }
        List<Message> fired = receive(bench, ingress);
        QueueBatchResult applied = runtime.processQueueBatch(messages(fired));
        if (applied.applied() != 10) {
          throw new IllegalStateException("The delayed messages were not applied: " + applied);
        }
        delete(bench, ingress, fired);
        CostMeter.Snapshot firing = bench.meter.snapshot();
        if (round >= WARMUP_ROUNDS) {
          Measure measure = woken ? wakeUps : sweep;
          measure.add(setting, 10);
          measure.add(firing, 0);
        }
      }
    }
    log.printf("  %-15s wake-ups:   %s%n  %-15s sweep only: %s%n", "delayed10", wakeUps, "", sweep);
    Result ours = wakeUps.result(name(), "delayed10");
    ours.with("capacity_ratio", sweep.capacityPerMessage() / wakeUps.capacityPerMessage())
        .with("sqs_request_ratio", (double) sweep.sqsRequests / Math.max(1, wakeUps.sqsRequests));
    return List.of(ours, sweep.result(name(), "delayed10-sweep-only"));
  }

  /** Deletes what was received, in one batch request, as Lambda's poller does. */
  static void delete(CostBench bench, String url, List<Message> received) {
    bench.sqs.deleteMessageBatch(
        b ->
            b.queueUrl(url)
                .entries(
                    received.stream()
                        .map(
                            m ->
                                DeleteMessageBatchRequestEntry.builder()
                                    .id(m.messageId())
                                    .receiptHandle(m.receiptHandle())
                                    .build())
                        .toList()));
  }

  private static List<Message> receive(CostBench bench, String url) {
    return receive(bench, url, 10);
  }

  /** Receives {@code count} messages of {@code url}, with their system attributes. */
  static List<Message> receive(CostBench bench, String url, int count) {
    List<Message> received = new ArrayList<>();
    while (received.size() < count) {
      received.addAll(
          bench
              .sqs
              .receiveMessage(
                  b ->
                      b.queueUrl(url)
                          .maxNumberOfMessages(Math.min(10, count - received.size()))
                          .waitTimeSeconds(1)
                          .messageSystemAttributeNames(MessageSystemAttributeName.ALL))
              .messages());
    }
    return received;
  }

  /** The runtime's view of received SQS messages. */
  static List<QueueMessage> messages(List<Message> received) {
    List<QueueMessage> messages = new ArrayList<>();
    for (Message m : received) {
      Map<MessageSystemAttributeName, String> a = m.attributes();
      messages.add(
          new QueueMessage(
              m.messageId(),
              m.body(),
              a.get(MessageSystemAttributeName.MESSAGE_GROUP_ID),
              a.get(MessageSystemAttributeName.SEQUENCE_NUMBER),
              Integer.parseInt(a.get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT))));
    }
    return messages;
  }

  private List<Result> report(String name, Measure ours, Measure theirs, PrintStream log) {
    log.printf("  %-15s statekit: %s%n  %-15s naive:    %s%n", name, ours, name, theirs);
    Result statekit = ours.result(name(), name);
    statekit
        .with("capacity_ratio", theirs.capacityPerMessage() / ours.capacityPerMessage())
        .with("round_trip_ratio", (double) theirs.medianRoundTrips() / ours.medianRoundTrips());
    return List.of(statekit, theirs.result(name(), name + "-naive"));
  }

  /** Sums over the measured rounds. */
  private static final class Measure {
    long messages;
    long ddbRequests;
    long sqsRequests;
    double rcu;
    double wcu;
    final List<Integer> roundTrips = new ArrayList<>();

    void add(CostMeter.Snapshot snapshot, int batchMessages) {
      messages += batchMessages;
      roundTrips.add(snapshot.roundTrips());
      ddbRequests += snapshot.requestsTo("DynamoDb");
      sqsRequests += snapshot.requestsTo("Sqs");
      rcu += snapshot.readCapacityUnits();
      wcu += snapshot.writeCapacityUnits();
    }

    /** The median batch's round trips: the design's, less the noise of a shared machine. */
    int medianRoundTrips() {
      List<Integer> sorted = new ArrayList<>(roundTrips);
      sorted.sort(null);
      return sorted.get(sorted.size() / 2);
    }

    double capacityPerMessage() {
      return (rcu + wcu) / messages;
    }

    Result result(String suite, String name) {
      return Result.of(suite, name)
          .with("ddb_requests_per_msg", (double) ddbRequests / messages)
          .with("wcu_per_msg", wcu / messages)
          .with("rcu_per_msg", rcu / messages)
          .with("round_trips_per_batch", medianRoundTrips())
          .with("sqs_requests_per_msg", (double) sqsRequests / messages);
    }

    @Override
    public String toString() {
      return String.format(
          "%.3f DynamoDB requests, %.3f WCU, %.3f RCU, %.3f SQS requests per message;"
              + " round trips per batch %s",
          (double) ddbRequests / messages,
          wcu / messages,
          rcu / messages,
          (double) sqsRequests / messages,
          roundTrips);
    }
  }
}
