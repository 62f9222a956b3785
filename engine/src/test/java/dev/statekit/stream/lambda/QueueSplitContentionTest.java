package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An SQS event source mapping scaled out: many invocations (execution environments) of one queue's
 * pipeline at once, each taking batches of 10 messages, every message of a key of its own (no key
 * is written by two batches), on a store whose every call takes as long as a DynamoDB request does
 * (4 ms: the conditional write of the split lands that long after the split was read). Nothing
 * fails but what the pipeline itself does: every batch is healthy.
 *
 * <p>Every batch of the queue ends with a conditional write of the queue's one split item (its
 * watermark and when it was active), re-read and retried at most 10 times with no pause. With
 * dozens of invocations finishing batches at once, a batch loses that race 11 times in a row, and
 * the whole batch fails ("The checkpoint of orders-queue kept changing"): SQS hands its messages
 * over again, each receive counted, and at {@code maxReceiveCount} moves them to the dead-letter
 * queue, though every one was applied, its receipt written and its outputs delivered. Redriven,
 * they come back under new message ids and are applied a second time (docs/pipelines.md).
 *
 * <p>Figures: {@code mvn -B -o -q -pl engine test -Dtest=QueueSplitContentionTest
 * -Dsurefire.failIfNoSpecifiedTests=false}, each run prints one line per concurrency.
 */
class QueueSplitContentionTest {
  private static final String QUEUE = "orders-queue";
  private static final long CALL_NANOS = TimeUnit.MILLISECONDS.toNanos(4);
  private static final int BATCH = 10;
  private static final int BATCHES_EACH = 8;
  private static final int MAX_RECEIVE_COUNT = 5;

  /** A message of the modelled queue: its id and how often it was received. */
  private static final class Message {
    final String id;
    int receives;

    Message(String id) {
      this.id = id;
    }
  }

  /** What a run of the modelled queue came to. */
  private record Figures(
      int invocations,
      int messages,
      int batches,
      int keptChanging,
      int otherFailures,
      int deadLettered,
      int deadLetteredApplied,
      int splitWrites,
      long millis) {
    @Override
    public String toString() {
      return invocations
          + " concurrent invocations, "
          + messages
          + " messages: "
          + batches
          + " batches, "
          + keptChanging
          + " failed 'kept changing' ("
          + (batches == 0 ? 0 : 100 * keptChanging / batches)
          + "%), "
          + otherFailures
          + " failed otherwise; "
          + deadLettered
          + " messages dead-lettered at maxReceiveCount "
          + MAX_RECEIVE_COUNT
          + ", "
          + deadLetteredApplied
          + " of them applied (receipt written); "
          + splitWrites
          + " conditional writes of the split item ("
          + (millis == 0 ? 0 : splitWrites * 1000L / millis)
          + "/s); "
          + millis
          + " ms";
    }
  }

  @ParameterizedTest(name = "{0} concurrent batches of one queue")
  @ValueSource(ints = {16, 64, 200})
  void healthyBatchesOfOneQueueNeverFailForTheSplitsWrite(int invocations) throws Exception {
    Figures figures = run(invocations, false);
    System.out.println("QueueSplitContentionTest: " + figures);
    assertEquals(0, figures.keptChanging(), "healthy batches failed: " + figures);
    assertEquals(0, figures.deadLettered(), "messages dead-lettered: " + figures);
  }

  /**
   * The same on a DynamoDB table's stream (one split per table; Lambda runs its shards' batches
   * side by side, up to ParallelizationFactor 10 each): a failed batch blocks its shard and is
   * retried whole (here until it passes, as with MaximumRetryAttempts -1). Counted as
   * dead-lettered: the records of batches that failed {@code MAX_RECEIVE_COUNT} times or more (with
   * a smaller MaximumRetryAttempts, given up and sent to the on-failure destination, their windows
   * held until someone replays them).
   */
  @ParameterizedTest(name = "{0} concurrent batches of one table's stream")
  @ValueSource(ints = {16, 64, 200})
  void healthyBatchesOfOneTablesStreamNeverFailForTheSplitsWrite(int lanes) throws Exception {
    Figures figures = run(lanes, true);
    System.out.println("QueueSplitContentionTest (stream): " + figures);
    assertEquals(0, figures.keptChanging(), "healthy batches failed: " + figures);
  }

  private static Figures run(int invocations, boolean changes) throws Exception {
    // The wall clock: each message sent just before its batch, event time moving as on a live
    // queue.
    Clock clock = Clock.systemUTC();
    InMemoryBatchStore inner = new InMemoryBatchStore(clock);
    AtomicInteger splitWrites = new AtomicInteger();
    BatchStore dynamo =
        new ForwardingBatchStore(inner) {
          @Override
          void before() {
            LockSupport.parkNanos(CALL_NANOS); // the request's round trip
          }

          @Override
          public boolean callsWait() {
            return true;
          }

          @Override
          public boolean writeSplit(String pipeline, SplitState state) {
            splitWrites.incrementAndGet();
            return super.writeSplit(pipeline, state);
          }
        };
    CollectingEgressSink sink = new CollectingEgressSink();
    Pipeline plan =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
            .keyBy(id -> id)
            .reduce((a, b) -> b, Serdes.string())
            .to(EgressOutput.to(sink, TypeName.of("test", "counts"), Types.stringType()));

    ConcurrentLinkedDeque<Message> queue = new ConcurrentLinkedDeque<>();
    int messages = invocations * BATCHES_EACH * BATCH;
    for (int i = 0; i < messages; i++) {
      queue.add(new Message(Long.toString(1_000_000_000L + i)));
    }
    List<String> deadLetters = java.util.Collections.synchronizedList(new ArrayList<>());
    AtomicInteger batches = new AtomicInteger();
    AtomicInteger keptChanging = new AtomicInteger();
    AtomicInteger otherFailures = new AtomicInteger();
    List<Throwable> others = java.util.Collections.synchronizedList(new ArrayList<>());

    List<Thread> threads = new ArrayList<>();
    long started = System.nanoTime();
    for (int n = 0; n < invocations; n++) {
      // One execution environment: its own pipeline instance (cache, threads), kept warm.
      BatchPipeline environment =
          BatchPipeline.builder("contention", plan)
              .store(dynamo)
              .clock(clock)
              .batchTimeout(Duration.ofMinutes(1))
              .build();
      Thread thread =
          new Thread(
              () -> {
                List<Message> retried = new ArrayList<>();
                while (true) {
                  // Lambda's poller and the invoke: a few ms between an environment's batches.
                  LockSupport.parkNanos(
                      TimeUnit.MICROSECONDS.toNanos(ThreadLocalRandom.current().nextInt(10_000)));
                  List<Message> taken = new ArrayList<>(retried);
                  retried.clear();
                  for (Message m; taken.size() < BATCH && (m = queue.poll()) != null; ) {
                    taken.add(m);
                  }
                  taken.forEach(m -> m.receives++);
                  if (taken.isEmpty()) {
                    return;
                  }
                  SourceBatch.Builder batch =
                      changes ? SourceBatch.changes(QUEUE) : SourceBatch.unordered(QUEUE);
                  for (Message m : taken) {
                    batch.add(m.id, clock.millis(), m.id.getBytes(StandardCharsets.UTF_8));
                  }
                  batches.incrementAndGet();
                  List<String> failed;
                  try {
                    failed = environment.process(batch.build()).failedOffsets();
                  } catch (RuntimeException e) {
                    if (String.valueOf(e.getMessage()).contains("kept changing")) {
                      keptChanging.incrementAndGet();
                    } else {
                      otherFailures.incrementAndGet();
                      others.add(e);
                    }
                    failed = taken.stream().map(m -> m.id).toList();
                  }
                  for (Message m : taken) {
                    if (!failed.contains(m.id)) {
                      continue; // deleted
                    }
                    if (changes) {
                      // The shard's batch is handed over again, whole, until it passes.
                      if (m.receives == MAX_RECEIVE_COUNT) {
                        deadLetters.add(m.id);
                      }
                      retried.add(m);
                    } else if (m.receives >= MAX_RECEIVE_COUNT) {
                      deadLetters.add(m.id); // SQS's redrive policy
                    } else {
                      queue.add(m); // back after its visibility timeout
                    }
                  }
                }
              },
              "invocation-" + n);
      threads.add(thread);
    }
    threads.forEach(Thread::start);
    for (Thread thread : threads) {
      thread.join();
    }
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    if (!others.isEmpty()) {
      throw new AssertionError("a batch failed for another reason", others.get(0));
    }
    int applied = inner.readReceipts("contention", QUEUE, deadLetters).size();
    return new Figures(
        invocations,
        messages,
        batches.get(),
        keptChanging.get(),
        otherFailures.get(),
        deadLetters.size(),
        applied,
        splitWrites.get(),
        millis);
  }
}
