package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.BusMessage;
import dev.statekit.bus.QueueMessage;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.egress.EgressSink;
import dev.statekit.function.Address;
import dev.statekit.function.MessageBuilder;
import dev.statekit.runtime.internal.FaultHook;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The counting application under fire: 10,000 messages, each adding 1 to one of 100 counters, which
 * each tell an aggregate address; while two workers take overlapping batches, batches are delivered
 * twice, and the process "dies" at random after reading, after a commit (before the send, possibly
 * in the middle of a batch), and after the send (before the ack). Afterwards every counter and the
 * aggregate are exact and every message has exactly one egress record.
 */
abstract class FaultToleranceContract extends RuntimeFixture {
  static final int MESSAGES = 10_000;
  static final int COUNTERS = 100;
  static final Duration DEADLINE = Duration.ofMinutes(4);

  private final long seed = System.nanoTime();
  private final Random random = new Random(seed);
  private final AtomicInteger crashes = new AtomicInteger();
  private final AtomicInteger duplicates = new AtomicInteger();
  private final AtomicInteger overlaps = new AtomicInteger();
  private final AtomicInteger unacked = new AtomicInteger();

  /** Where egress records go: a sink that keeps one record per id. */
  abstract EgressSink egressSink();

  /** Every egress record's text, with how many records hold it. */
  abstract Map<String, Integer> egressTexts();

  @Test
  void countsExactlyThroughCrashesRepeatsAndConcurrentWorkers() throws Exception {
    Address aggregate = Address.of(TestFunctions.TOTAL, "all");
    enqueueAll();
    List<Worker> workers = List.of(new Worker(), new Worker());
    workers.get(0).other = workers.get(1);
    workers.get(1).other = workers.get(0);
    AtomicBoolean done = new AtomicBoolean();
    List<Thread> threads = new ArrayList<>();
    for (Worker worker : workers) {
      worker.done = done;
      Thread thread = new Thread(worker, "fault-worker");
      threads.add(thread);
      thread.start();
    }
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!finished(aggregate) && System.nanoTime() < deadline) {
      Thread.sleep(250);
    }
    done.set(true);
    for (Thread thread : threads) {
      thread.join();
    }
    for (Worker worker : workers) {
      if (worker.failure != null) {
        throw new AssertionError("a worker failed (seed " + seed + ")", worker.failure);
      }
    }
    String faults =
        "seed "
            + seed
            + ": "
            + crashes
            + " crashes, "
            + duplicates
            + " batches delivered twice, "
            + overlaps
            + " batches taken by both workers, "
            + unacked
            + " batches not acknowledged";
    System.out.println("[fault test] " + faults);

    assertEquals(MESSAGES, value(aggregate, TestFunctions.COUNT), faults);
    assertEquals((long) MESSAGES * (MESSAGES + 1) / 2, value(aggregate, TestFunctions.SUM), faults);
    for (int k = 0; k < COUNTERS; k++) {
      Address counter = counter(k);
      long expectedSum = 0;
      for (int n = 1; n <= MESSAGES; n++) {
        expectedSum += n % COUNTERS == k ? n : 0;
      }
      assertEquals(
          MESSAGES / COUNTERS, value(counter, TestFunctions.COUNT), counter + " " + faults);
      assertEquals(expectedSum, value(counter, TestFunctions.SUM), counter + " " + faults);
    }
    Map<String, Integer> texts = egressTexts();
    Set<String> expected = new HashSet<>();
    for (int n = 1; n <= MESSAGES; n++) {
      expected.add(counter(n % COUNTERS).id() + ":" + n);
    }
    assertEquals(expected, texts.keySet(), "every message has an egress record " + faults);
    assertTrue(texts.values().stream().allMatch(c -> c == 1), "and only one " + faults);
    assertEquals(0, deadLetters().peekAll().size(), "nothing was dead-lettered " + faults);
    assertTrue(crashes.get() > 0 && duplicates.get() > 0 && overlaps.get() > 0, faults);
  }

  private boolean finished(Address aggregate) {
    return value(aggregate, TestFunctions.COUNT) == MESSAGES
        && egressTexts().values().stream().mapToInt(Integer::intValue).sum() == MESSAGES;
  }

  private void enqueueAll() {
    List<BusMessage> batch = new ArrayList<>();
    for (int n = 1; n <= MESSAGES; n++) {
      Address target = counter(n % COUNTERS);
      batch.add(
          new BusMessage(
              Ingress.groupId(target),
              "m-" + run + "-" + n,
              Ingress.envelope(MessageBuilder.forAddress(target).withValue((long) n).build())));
      if (batch.size() == 10) {
        queue().bus().send(batch);
        batch = new ArrayList<>();
      }
    }
  }

  private FunctionRuntime faultyRuntime() {
    return runtime(
        b ->
            b.maxAttempts(1_000)
                .egress(EgressRoutes.builder().route(TestFunctions.COUNTED, egressSink()).build())
                .faultHook(
                    (step, address) -> {
                      double chance =
                          step == FaultHook.Step.LOADED
                              ? 0.01
                              : step == FaultHook.Step.COMMITTED ? 0.01 : 0.03;
                      if (chance(chance)) {
                        crashes.incrementAndGet();
                        throw new QueueBatchContract.SimulatedCrash();
                      }
                    }));
  }

  private Address counter(int k) {
    return address(TestFunctions.COUNTER, "c" + k);
  }

  private synchronized boolean chance(double probability) {
    return random.nextDouble() < probability;
  }

  /** A Lambda-like poller with its own runtime (its own process, in effect). */
  private final class Worker implements Runnable {
    final FunctionRuntime runtime = faultyRuntime();
    final ConcurrentLinkedQueue<List<QueueSource.Received>> inbox = new ConcurrentLinkedQueue<>();
    Worker other;
    AtomicBoolean done;
    Throwable failure;

    @Override
    public void run() {
      try {
        int idle = 0;
        while (!done.get()) {
          List<QueueSource.Received> batch = inbox.poll();
          if (batch == null) {
            batch = queue().receive(10);
            if (!batch.isEmpty() && chance(0.03)) {
              overlaps.incrementAndGet();
              other.inbox.add(batch);
            }
          }
          if (batch.isEmpty()) {
            if (++idle % 4 == 0) {
              waitForVisibility();
            } else {
              Thread.sleep(20);
            }
            continue;
          }
          idle = 0;
          process(batch);
        }
      } catch (Throwable e) {
        failure = e;
      }
    }

    private void process(List<QueueSource.Received> batch) {
      List<QueueMessage> messages = batch.stream().map(QueueSource.Received::message).toList();
      try {
        QueueBatchResult result = runtime.processQueueBatch(messages);
        if (chance(0.03)) {
          duplicates.incrementAndGet();
          result = runtime.processQueueBatch(messages);
        }
        if (chance(0.02)) {
          unacked.incrementAndGet();
          return;
        }
        Map<String, Boolean> failed = new HashMap<>();
        result.failedMessageIds().forEach(id -> failed.put(id, true));
        for (QueueSource.Received received : batch) {
          if (!failed.containsKey(received.message().messageId())) {
            queue().delete(received.receiptHandle());
          }
        }
      } catch (QueueBatchContract.SimulatedCrash crash) {
        // The process died: nothing is acknowledged; the batch comes back.
      }
    }
  }
}
