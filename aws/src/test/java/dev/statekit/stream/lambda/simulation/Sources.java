package dev.statekit.stream.lambda.simulation;

import dev.statekit.stream.SourcePosition;
import dev.statekit.stream.lambda.GivenUp;
import dev.statekit.stream.lambda.SourceBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

/**
 * The event source of a schedule and its mappings, set up from the seed: a Kinesis stream of one to
 * three shards (now and then resharded: a shard closes and two children take its keys once it is
 * drained; now and then read with ParallelizationFactor 2), an SQS queue, or a DynamoDB stream.
 */
final class Sources {
  private final Workload.Source kind;
  private final Random random;
  private final Trace trace;
  private final List<ShardMapping> shards = new ArrayList<>();
  private final List<ShardMapping> initial = new ArrayList<>();
  private final List<GivenUp> replayed = new ArrayList<>();
  private final List<ShardMapping.Skipped> handedBack = new ArrayList<>();
  private QueueMapping queue;
  private QueueMapping deadLetterQueue;

  /**
   * Draws which consumer reads the dead-letter queue, apart from {@link #random}, so that each
   * seed's schedule up to its first dead letter stays what it was.
   */
  private final Random routing;

  private int parallelization = 1;
  private int maxRetries;
  private int batchSize;
  private long reshardAt = Long.MAX_VALUE;
  private long sequence = 0;

  Sources(Workload.Source kind, Random random, Random routing, Trace trace) {
    this.kind = kind;
    this.random = random;
    this.routing = routing;
    this.trace = trace;
  }

  void setUp(long inputSpan, long start) {
    int[] retries = {-1, 2, 10};
    maxRetries = retries[random.nextInt(retries.length)];
    batchSize = 1 + random.nextInt(random.nextBoolean() ? 10 : 100);
    switch (kind) {
      case KINESIS -> {
        parallelization = random.nextInt(25) == 0 ? 2 : 1;
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
          ShardMapping shard = shard("clicks/shardId-00000000000" + i, false, null);
          initial.add(shard);
        }
        if (random.nextInt(3) == 0) {
          reshardAt = start + (long) (random.nextDouble() * inputSpan);
        }
      }
      case CHANGES -> initial.add(shard("dynamodb:orders", true, null));
      case QUEUE, FIFO_QUEUE -> setUpQueue(kind == Workload.Source.FIFO_QUEUE);
    }
  }

  /**
   * The queue, its dead-letter queue (a FIFO queue's is FIFO too) and their mappings: the queue's
   * consumer is {@code queueConsumer()}; the dead-letter queue's, as {@link #routing} picks, {@code
   * deadLetterConsumer} of the queue, of the queue and another whose redrive policy moves messages
   * to the same dead-letter queue, or {@code queueConsumer()}, as a {@code PipelineHandler}, which
   * routes every queue there, has it.
   */
  private void setUpQueue(boolean fifo) {
    String suffix = fifo ? ".fifo" : "";
    String source = "orders" + suffix;
    String other = "invoices" + suffix;
    QueueInvoker.Handler dlqHandler =
        switch (routing.nextInt(3)) {
          case 0 ->
              new QueueInvoker.Handler(
                  "deadLetterConsumer(" + source + ")", p -> p.deadLetterConsumer(source));
          case 1 ->
              new QueueInvoker.Handler(
                  "deadLetterConsumer(" + other + ", " + source + ")",
                  p -> p.deadLetterConsumer(other, source));
          default -> new QueueInvoker.Handler("queueConsumer()", p -> p.queueConsumer());
        };
    deadLetterQueue =
        new QueueMapping("orders-dlq" + suffix, fifo, 10, random, dlqHandler, null, false);
    queue =
        new QueueMapping(
            source,
            fifo,
            10,
            random,
            new QueueInvoker.Handler("queueConsumer()", p -> p.queueConsumer()),
            deadLetterQueue,
            true);
  }

  private ShardMapping shard(String split, boolean changes, ShardMapping parent) {
    ShardMapping shard =
        new ShardMapping(split, changes, parallelization, maxRetries, batchSize, parent, random);
    shards.add(shard);
    return shard;
  }

  int parallelization() {
    return parallelization;
  }

  /** The shards as ListShards names them (Kinesis only). */
  List<String> openSplits() {
    List<String> splits = new ArrayList<>();
    if (kind == Workload.Source.KINESIS) {
      shards.forEach(s -> splits.add(s.split()));
    }
    return splits;
  }

  void put(Workload.Input input, long now, Consumer<List<String>> registerNew) {
    if (now >= reshardAt) {
      reshardAt = Long.MAX_VALUE;
      ShardMapping parent = initial.get(0);
      parent.closed = true;
      List<String> children = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        children.add(shard(parent.split() + "-child" + i, false, parent).split());
      }
      trace.add("reshard: " + parent.split() + " closes, " + children + " open");
      registerNew.accept(children);
    }
    if (queue != null) {
      queue.send(
          new QueueMapping.Message("m-" + (sequence++), input.key(), input.data(), input.at()));
      return;
    }
    String number = String.format("49590338271490256608%020d", 1_000_000 + sequence++);
    ShardMapping target = target(input.key());
    target.put(new ShardMapping.Rec(number, input.key(), input.data(), input.at()));
  }

  private ShardMapping target(String key) {
    ShardMapping shard = initial.get(Math.floorMod(key.hashCode(), initial.size()));
    if (shard.closed) {
      List<ShardMapping> children = new ArrayList<>();
      for (ShardMapping s : shards) {
        if (s.split().startsWith(shard.split() + "-child")) {
          children.add(s);
        }
      }
      shard = children.get(Math.floorMod(key.hashCode() / 7, children.size()));
    }
    return shard;
  }

  List<Runnable> ready(long now, Invoker invoker, QueueInvoker queueInvoker, Faults faults) {
    List<Runnable> ready = new ArrayList<>();
    for (ShardMapping shard : shards) {
      if (shard.ready(now)) {
        ready.add(() -> shard.step(invoker, now, faults, trace));
      }
    }
    if (queue != null && queue.ready(now)) {
      ready.add(() -> queue.step(queueInvoker, now, faults, trace));
    }
    if (deadLetterQueue != null && deadLetterQueue.ready(now)) {
      ready.add(() -> deadLetterQueue.step(queueInvoker, now, faults, trace));
    }
    return ready;
  }

  long nextWake(long now) {
    long wake = Long.MAX_VALUE;
    for (ShardMapping shard : shards) {
      wake = Math.min(wake, shard.nextRetry());
    }
    if (queue != null) {
      wake = Math.min(wake, queue.nextVisible(now));
      wake = Math.min(wake, deadLetterQueue.nextVisible(now));
    }
    return wake;
  }

  boolean drained() {
    return shards.stream().allMatch(ShardMapping::drained) && (queue == null || queue.drained());
  }

  /** Whether the record (split/offset) was in a batch a mapping gave up on. */
  boolean givenUpByLambda(String record) {
    for (ShardMapping shard : shards) {
      for (ShardMapping.Skipped skipped : shard.onFailure) {
        String prefix = skipped.split() + "/";
        if (record.startsWith(prefix)) {
          String offset = record.substring(prefix.length());
          if (SourcePosition.compareOffsets(offset, skipped.first()) >= 0
              && SourcePosition.compareOffsets(offset, skipped.last()) <= 0) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Every record of every shard, as split/offset. */
  List<String> recordIds() {
    List<String> ids = new ArrayList<>();
    for (ShardMapping shard : shards) {
      shard.records().forEach(r -> ids.add(shard.split() + "/" + r.sequence()));
    }
    return ids;
  }

  /** Nothing left to hand over but dead letters. */
  boolean settled() {
    return shards.stream().allMatch(ShardMapping::drained) && (queue == null || queue.settled());
  }

  /**
   * What the operator does once the cause is fixed: enables the dead-letter queue's event source
   * mapping, which hands its messages to the consumer registered for it.
   */
  void recoverDeadLetters() {
    if (deadLetterQueue != null && deadLetterQueue.enable()) {
      trace.add(
          deadLetterQueue.split()
              + "'s mapping enabled, "
              + deadLetterQueue.waiting()
              + " dead letters waiting");
    }
  }

  SourceBatch range(GivenUp range) {
    for (ShardMapping shard : shards) {
      if (shard.split().equals(range.split())) {
        return shard.range(range.after(), range.before());
      }
    }
    throw new IllegalStateException("no shard " + range.split());
  }

  void replayed(GivenUp range) {
    replayed.add(range);
  }

  /** The batches a DynamoDB stream's mapping gave up on, each handed over once more. */
  List<SourceBatch> unorderedGivenUp() {
    List<SourceBatch> batches = new ArrayList<>();
    if (kind == Workload.Source.CHANGES) {
      for (ShardMapping shard : shards) {
        for (ShardMapping.Skipped skipped : shard.onFailure) {
          if (!handedBack.contains(skipped)) {
            handedBack.add(skipped);
            batches.add(shard.between(skipped.first(), skipped.last()));
          }
        }
      }
    }
    return batches;
  }

  /** Records the shards trimmed before they were read: the run took past the retention. */
  List<String> expired() {
    List<String> lost = new ArrayList<>();
    for (ShardMapping shard : shards) {
      if (!shard.expired.isEmpty()) {
        lost.add(shard.expired.size() + " records of " + shard.split() + " expired unread");
      }
    }
    return lost;
  }

  /** The on-failure records of the Kinesis shards that no replay covered yet. */
  List<ShardMapping.Skipped> skippedNotReplayed() {
    List<ShardMapping.Skipped> left = new ArrayList<>();
    if (kind != Workload.Source.KINESIS) {
      return left;
    }
    for (ShardMapping shard : shards) {
      for (ShardMapping.Skipped skipped : shard.onFailure) {
        boolean covered =
            replayed.stream()
                .anyMatch(
                    r ->
                        r.split().equals(skipped.split())
                            && r.covers(skipped.first())
                            && r.covers(skipped.last()));
        if (!covered) {
          left.add(skipped);
        }
      }
    }
    return left;
  }

  /** Batches Lambda gave up on that no replay covered. */
  List<String> unnoticed() {
    return skippedNotReplayed().stream().map(s -> "given up and not noticed: " + s).toList();
  }

  @Override
  public String toString() {
    return kind
        + (queue != null
            ? " (" + queue + ")"
            : " with "
                + initial.size()
                + " shard(s), batches up to "
                + batchSize
                + ", MaximumRetryAttempts "
                + maxRetries
                + ", ParallelizationFactor "
                + parallelization
                + (shards.size() > initial.size() ? ", resharded" : ""));
  }

  void dump() {
    for (ShardMapping shard : shards) {
      for (ShardMapping.Rec rec : shard.records()) {
        System.out.println(
            "DUMP "
                + shard.split()
                + " "
                + rec.sequence()
                + " "
                + new String(rec.data())
                + " at "
                + (rec.at() - Simulation.START));
      }
      System.out.println("DUMP skipped " + shard.onFailure);
    }
  }

  static boolean after(String a, String b) {
    return SourcePosition.compareOffsets(a, b) > 0;
  }
}
