package dev.statekit.benchmarks.runtime;

import dev.statekit.aws.dynamodb.DynamoDbFunctionStore;
import dev.statekit.aws.internal.CostMeter;
import dev.statekit.aws.sqs.SqsMessageBus;
import dev.statekit.benchmarks.CpuClock;
import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.function.Address;
import dev.statekit.function.MessageBuilder;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.Ingress;
import dev.statekit.runtime.QueueBatchResult;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * The {@code runtime-cost} suite's FIFO case measured per batch for the {@code cost} suite: a
 * producer sends a batch of messages to the ingress queue, Lambda's poller receives and deletes
 * them, the runtime applies them (the counter functions, state a few hundred bytes an address). CPU
 * time of the runtime, DynamoDB requests and capacity units as the responses report them, SQS
 * requests of each party, sequential round trips.
 */
public final class RuntimeBatchCost {
  /** What one batch cost, averaged over the measured batches. */
  public record Figures(
      int messages,
      double cpuMillis,
      double ddbRequests,
      double writeUnits,
      double readUnits,
      double runtimeSqsRequests,
      double pollerSqsRequests,
      double producerSqsRequests,
      double roundTrips) {}

  /** Unmeasured batches first: the JIT compiles the request path (small batches make few). */
  private static final int WARMUP_BATCHES = 20;

  private static final int BATCHES = 10;

  private final CostBench bench = new CostBench();
  private final String ingress = bench.fifoQueue("cost-ingress");
  private final FunctionRuntime runtime =
      FunctionRuntime.builder(BenchCounter.registry())
          .store(new DynamoDbFunctionStore(bench.dynamoDb, bench.table))
          .queue(new SqsMessageBus(bench.sqs, ingress))
          .deadLetters(new SqsMessageBus(bench.sqs, bench.fifoQueue("cost-dlq")))
          .egress(
              EgressRoutes.builder().route(BenchCounter.EVENTS, new CollectingEgressSink()).build())
          .build();

  /** Batches of {@code messages} messages, each to an address of its own, steady state. */
  public Figures measure(int messages) {
    String run = UUID.randomUUID().toString().substring(0, 8);
    long cpu = 0;
    double ddb = 0;
    double wcu = 0;
    double rcu = 0;
    double runtimeSqs = 0;
    double pollerSqs = 0;
    double producerSqs = 0;
    List<Integer> trips = new ArrayList<>();
    for (int b = 0; b < WARMUP_BATCHES + BATCHES; b++) {
      List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
      for (int a = 0; a < messages; a++) {
        Address target = Address.of(BenchCounter.TYPE, "cost-" + run + "-" + a);
        entries.add(
            SendMessageBatchRequestEntry.builder()
                .id(Integer.toString(a))
                .messageGroupId(Ingress.groupId(target))
                .messageDeduplicationId(run + "-" + b + "-" + a)
                .messageBody(
                    Ingress.envelope(MessageBuilder.forAddress(target).withValue(1L).build()))
                .build());
      }
      bench.meter.reset();
      bench.sqs.sendMessageBatch(s -> s.queueUrl(ingress).entries(entries));
      long sent = bench.meter.snapshot().requestsTo("Sqs");
      bench.meter.reset();
      List<Message> received = RuntimeCostSuite.receive(bench, ingress, messages);
      long polled = bench.meter.snapshot().requestsTo("Sqs");
      bench.meter.reset();
      long before = CpuClock.nanos();
      QueueBatchResult result = runtime.processQueueBatch(RuntimeCostSuite.messages(received));
      long spent = CpuClock.nanos() - before;
      CostMeter.Snapshot cost = bench.meter.snapshot();
      if (!result.failedMessageIds().isEmpty()) {
        throw new IllegalStateException("A cost batch failed: " + result);
      }
      bench.meter.reset();
      RuntimeCostSuite.delete(bench, ingress, received);
      polled += bench.meter.snapshot().requestsTo("Sqs");
      if (b >= WARMUP_BATCHES) {
        cpu += spent;
        ddb += cost.requestsTo("DynamoDb");
        wcu += cost.writeCapacityUnits();
        rcu += cost.readCapacityUnits();
        runtimeSqs += cost.requestsTo("Sqs");
        pollerSqs += polled;
        producerSqs += sent;
        trips.add(cost.roundTrips());
      }
    }
    trips.sort(null);
    return new Figures(
        messages,
        cpu / 1e6 / BATCHES,
        ddb / BATCHES,
        wcu / BATCHES,
        rcu / BATCHES,
        runtimeSqs / BATCHES,
        pollerSqs / BATCHES,
        producerSqs / BATCHES,
        trips.get(trips.size() / 2));
  }
}
