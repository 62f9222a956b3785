package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.StateBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A key's state and window timers are kept under its serialized form, and a restored run reads its
 * windows' keys back from their timers. Keys that read back as themselves keep their windows across
 * a restore; keys that do not (a class Jackson cannot construct, a class equal only to itself, a
 * {@code Set.of} whose order changes from one JVM to the next) are refused at their first record,
 * saying why and what to key by. Before, a {@code List.of} key's open windows never fired after a
 * restore (it read back as an {@code ArrayList}, written under another class name), a value class's
 * pipeline could never restore, and a class without equals counted each record apart. In process
 * here; a pipeline on Lambda checks alike ({@code BatchKeysTest}).
 */
class KeysAcrossRestoreTest {
  record Place(String key, String region) {}

  enum Parity {
    EVEN,
    ODD
  }

  enum Shape {
    ROUND {
      @Override
      public String toString() {
        return "round";
      }
    }
  }

  /** A class without equals: equal only to itself. */
  public static final class UserRef {
    public String user;

    public UserRef() {}

    UserRef(String user) {
      this.user = user;
    }

    @Override
    public String toString() {
      return user;
    }
  }

  private static Pipeline windows(
      List<Record<Event>> records, Function<Event, Object> key, Sink<String> sink) {
    return Pipeline.from(Sources.fromRecords(records, 10))
        .withWatermarks(
            WatermarkStrategy.<Event>boundedOutOfOrderness(Duration.ZERO)
                .withTimestamps(Event::time))
        .keyBy(key, 2)
        .window(Windows.tumbling(Duration.ofSeconds(1)))
        .aggregate(
            AggregateFunction.count(),
            Serdes.longs(),
            (Object k, TimeWindow w, Long n) -> k + "@" + w.start() + "=" + n)
        .to(sink);
  }

  private static List<Record<Event>> firstHalf() {
    List<Record<Event>> first = new ArrayList<>();
    for (int k = 0; k < 10; k++) {
      first.add(Record.of(new Event("k" + k, 100 + k, 1)));
      first.add(Record.of(new Event("k" + k, 200 + k, 1)));
    }
    return first;
  }

  /**
   * The results of the whole input: in one run, and in two runs of one pipeline, the first ending
   * with its windows open (as a run killed after its last checkpoint), the second restoring it.
   */
  private static Map<String, List<String>> runs(Function<Event, Object> key) throws Exception {
    List<Record<Event>> first = firstHalf();
    List<Record<Event>> all = new ArrayList<>(first);
    all.add(Record.of(new Event("k0", 5_000, 1)));
    CollectingSink<String> once = Sinks.collecting();
    windows(all, key, once).run(RunOptions.named("once").parallelism(1).build());
    return Map.of(
        "once", once.values().stream().sorted().toList(), "restored", twice(key, first, all));
  }

  /** The windows' results of {@code first}, run with its windows left open, then {@code all}. */
  private static List<String> twice(
      Function<Event, Object> key, List<Record<Event>> first, List<Record<Event>> all)
      throws Exception {
    CollectingSink<String> out = Sinks.collecting();
    RunOptions.Builder options =
        RunOptions.named("twice")
            .parallelism(1)
            .stateBackend(StateBackend.inMemory())
            .checkpointStore(CheckpointStore.inMemory());
    windows(first, key, out).run(options.fireWindowsAtEnd(false).build());
    PipelineResult restored = windows(all, key, out).run(options.fireWindowsAtEnd(true).build());
    assertTrue(restored.restoredFrom() > 0, "the second run restored a checkpoint");
    return out.values().stream().sorted().toList();
  }

  /** Every running sum per key of {@code first}, then, restoring its checkpoint, of {@code all}. */
  private static List<String> sums(
      Function<Event, Object> key, List<Record<Event>> first, List<Record<Event>> all)
      throws Exception {
    CollectingSink<String> out = Sinks.collecting();
    RunOptions options =
        RunOptions.named("sums")
            .parallelism(1)
            .stateBackend(StateBackend.inMemory())
            .checkpointStore(CheckpointStore.inMemory())
            .build();
    for (List<Record<Event>> input : List.of(first, all)) {
      Pipeline.from(Sources.fromRecords(input, 10))
          .keyBy(key, 2)
          .reduce(
              (a, b) -> new Event(a.key(), b.time(), a.value() + b.value()),
              Serdes.json(Event.class))
          .map(e -> e.key() + "=" + e.value())
          .to(out)
          .run(options);
    }
    return out.values();
  }

  private static List<Record<Event>> plus(List<Record<Event>> records, Event event) {
    List<Record<Event>> all = new ArrayList<>(records);
    all.add(Record.of(event));
    return all;
  }

  private static void keepsItsWindows(Function<Event, Object> key) throws Exception {
    keepsItsWindows(key, 11);
  }

  private static void keepsItsWindows(Function<Event, Object> key, int results) throws Exception {
    Map<String, List<String>> runs = runs(key);
    assertEquals(results, runs.get("once").size(), runs.toString());
    assertEquals(runs.get("once"), runs.get("restored"));
  }

  @Test
  void keysThatReadBackAsThemselvesKeepTheirWindowsAcrossARestore() throws Exception {
    keepsItsWindows(e -> new Place(e.key(), "eu"));
    keepsItsWindows(e -> new ArrayList<>(List.of(e.key(), "eu")));
    keepsItsWindows(e -> List.of(e.key(), "eu"));
    // Stream.toList() makes a ListN at every size, where List.of makes a List12 of two.
    keepsItsWindows(e -> java.util.stream.Stream.of(e.key()).toList());
    keepsItsWindows(e -> java.util.stream.Stream.of(e.key(), "eu").toList());
    keepsItsWindows(e -> java.util.stream.Stream.of(e.key(), "eu", "x").toList());
    keepsItsWindows(e -> (long) e.key().hashCode());
    keepsItsWindows(e -> Parity.values()[e.key().charAt(1) % 2], 3);
  }

  private static void refused(Function<Event, Object> key, String why) {
    PipelineFailedException e =
        assertThrows(
            PipelineFailedException.class,
            () ->
                windows(firstHalf(), key, Sinks.collecting())
                    .run(RunOptions.named("refused").parallelism(1).build()));
    IllegalArgumentException refusal =
        assertInstanceOf(IllegalArgumentException.class, e.getCause());
    assertTrue(refusal.getMessage().contains(why), refusal.getMessage());
    assertTrue(refusal.getMessage().contains("keySerde"), refusal.getMessage());
  }

  @Test
  void aSetOfKeyIsRefusedAtItsFirstRecord() {
    refused(e -> java.util.Set.of(e.key(), "eu"), "changes from one JVM to the next");
  }

  @Test
  void aKeyTheSerdeCannotReadBackIsRefused() {
    refused(e -> new UnreadableKey(e.key()), "cannot read it back");
  }

  @Test
  void anEnumConstantWithABodyIsRefused() {
    refused(e -> Shape.ROUND, "cannot read it back");
  }

  @Test
  void aKeyEqualOnlyToItselfIsRefused() {
    refused(e -> new UserRef(e.key()), "it has no equals");
  }

  /**
   * A keyed stage without windows never reads its keys back: a key its serde cannot read back (a
   * value class) keeps working there, its running state restored by the key it is written as.
   */
  @Test
  void aKeyTheSerdeCannotReadBackStillKeysAStageWithoutWindows() throws Exception {
    List<String> sums =
        sums(
            e -> new UnreadableKey(e.key()),
            firstHalf(),
            plus(firstHalf(), new Event("k9", 300, 1)));
    assertTrue(sums.contains("k9=3"), sums.toString());
  }

  private static final String[] CODES = {"EUR", "USD", "GBP"};

  /** Three payments in each of three currencies. */
  private static List<Record<Event>> payments() {
    List<Record<Event>> in = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      in.add(Record.of(new Event(CODES[i % 3], 100 + i, 1)));
    }
    return in;
  }

  private static List<String> finalSums(Function<Event, Object> key) throws Exception {
    return sums(key, payments(), payments()).stream()
        .filter(s -> s.endsWith("=3"))
        .sorted()
        .toList();
  }

  /**
   * A class without equals whose instances are canonical (one Currency per code, read back as that
   * very instance) keys state and windows, as before the check came; its first version refused it.
   */
  @Test
  void aCurrencyKeyStillKeysAReduce() throws Exception {
    assertEquals(
        List.of("EUR=3", "GBP=3", "USD=3"),
        finalSums(e -> java.util.Currency.getInstance(e.key())));
  }

  @Test
  void aCurrencyKeyKeepsItsWindowsAcrossARestore() throws Exception {
    assertEquals(
        List.of("EUR@0=3", "EUR@5000=1", "GBP@0=3", "USD@0=3"),
        twice(
            e -> java.util.Currency.getInstance(e.key()),
            payments(),
            plus(payments(), new Event("EUR", 5_000, 1))));
  }

  /** A Map.of of one entry has no order to vary from one JVM to the next: not refused. */
  @Test
  void aOneEntryMapOfKeyStillKeysAReduce() throws Exception {
    assertEquals(List.of("EUR=3", "GBP=3", "USD=3"), finalSums(e -> Map.of("currency", e.key())));
  }

  @Test
  void aOneEntryMapOfKeyKeepsItsStateAcrossARestore() throws Exception {
    List<String> sums =
        sums(
            e -> Map.of("currency", e.key()),
            payments(),
            plus(payments(), new Event("EUR", 300, 1)));
    assertTrue(sums.contains("EUR=4"), sums.toString());
  }
}
