package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.Deadline;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import dev.statekit.entry.EntryPoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Hands events to an entry point as Lambda does, each try by the function's timeout, and measures
 * each try: Lambda would have cut off one that ran past it, with none of its answers. Also the sink
 * the tests' pipelines write to, which keeps every value delivered under each id.
 */
final class DeadlineTries implements EgressSink {
  /** The function's timeout. */
  static final Duration TIMEOUT = Duration.ofSeconds(3);

  /** What a slow step takes per record: the batches of the tests take longer than the timeout. */
  static final long SLOW_MILLIS = 50;

  private final EntryPoint entry;
  private final Duration timeout;
  private final List<Long> tries = new ArrayList<>();
  private final Map<String, Set<String>> delivered = new LinkedHashMap<>();

  DeadlineTries(java.util.function.Function<EgressSink, EntryPoint> entry) {
    this(TIMEOUT, entry);
  }

  DeadlineTries(Duration timeout, java.util.function.Function<EgressSink, EntryPoint> entry) {
    this.timeout = timeout;
    this.entry = entry.apply(this);
  }

  /**
   * One try of {@code event}, holding {@code handed} records, by a deadline of the function's
   * timeout: answers the failed item identifiers, after checking that it answered in time and took
   * at least one record.
   */
  List<String> invoke(byte[] event, int handed) {
    long start = System.nanoTime();
    byte[] answer = entry.invoke(event, Deadline.after(timeout));
    long millis = (System.nanoTime() - start) / 1_000_000;
    tries.add(millis);
    assertTrue(
        millis < timeout.toMillis(),
        "try "
            + tries.size()
            + " of "
            + handed
            + " records answered after "
            + millis
            + " ms, past the function's timeout of "
            + timeout.toMillis()
            + " ms: Lambda would have cut it off before its checkpoint");
    List<String> failed = LambdaEvents.failures(answer);
    assertTrue(
        failed.size() < handed || handed == 0,
        "try " + tries.size() + " took none of its " + handed + " records: " + failed);
    return failed;
  }

  /** One try of {@code event} by a deadline that has passed already. */
  List<String> invokeWithNoTimeLeft(byte[] event) {
    return LambdaEvents.failures(entry.invoke(event, Deadline.after(Duration.ZERO)));
  }

  /** How long each try took, ms. */
  List<Long> tries() {
    return List.copyOf(tries);
  }

  /** Slows a step down as a call to a slow dependency would. */
  static void slowly() {
    try {
      Thread.sleep(SLOW_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public synchronized void deliver(List<EgressRecord> records) {
    for (EgressRecord record : records) {
      delivered
          .computeIfAbsent(record.id(), id -> new LinkedHashSet<>())
          .add(record.textOrBase64());
    }
  }

  /** The value of each id delivered, checking that no id was delivered with two values. */
  synchronized Map<String, String> outputs() {
    Map<String, String> outputs = new LinkedHashMap<>();
    delivered.forEach(
        (id, values) -> {
          assertTrue(values.size() == 1, "output " + id + " was delivered as " + values);
          outputs.put(id, values.iterator().next());
        });
    return outputs;
  }

  /**
   * The values a running concatenation per key makes of {@code values} in order ({@code "0"},
   * {@code "0 4"}, {@code "0 4 8"} ... for key {@code k0}), keyed by {@code keyOf}.
   */
  static Set<String> runningConcatenations(
      List<Integer> values, java.util.function.IntFunction<String> keyOf) {
    Map<String, String> running = new LinkedHashMap<>();
    Set<String> all = new LinkedHashSet<>();
    for (int value : values) {
      String now =
          running.merge(keyOf.apply(value), Integer.toString(value), (a, b) -> a + " " + b);
      all.add(now);
    }
    return all;
  }
}
