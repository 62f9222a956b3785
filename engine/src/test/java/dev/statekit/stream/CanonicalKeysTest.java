package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.StateBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Keys the key check must not refuse: a class without equals whose instances are canonical (one
 * {@code Currency} per code, read back as that very instance), and a {@code Map.of} of one entry,
 * which has no order to vary from one JVM to the next. Both keyed state and windows across a
 * restore before the check came, and were refused by its first version.
 */
class CanonicalKeysTest {
  private static final String[] CODES = {"EUR", "USD", "GBP"};

  private static List<Record<Event>> input() {
    List<Record<Event>> in = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      in.add(Record.of(new Event(CODES[i % 3], 100 + i, 1)));
    }
    return in;
  }

  private static List<String> reduce(Function<Event, Object> key) throws Exception {
    CollectingSink<String> out = Sinks.collecting();
    Pipeline.from(Sources.fromRecords(input(), 10))
        .keyBy(key, 2)
        .reduce(
            (a, b) -> new Event(a.key(), b.time(), a.value() + b.value()), Serdes.json(Event.class))
        .map(e -> e.key() + "=" + e.value())
        .to(out)
        .run(RunOptions.named("reduce").parallelism(1).build());
    return out.values().stream().filter(s -> s.endsWith("=3")).sorted().toList();
  }

  @Test
  void aCurrencyKeyStillKeysAReduce() throws Exception {
    assertEquals(List.of("EUR=3", "GBP=3", "USD=3"), reduce(e -> Currency.getInstance(e.key())));
  }

  /** A Map.of of one entry (Map1) is written alike in every JVM: only Set.of/Map.of of 2+ vary. */
  @Test
  void aOneEntryMapOfKeyStillKeysAReduce() throws Exception {
    assertEquals(
        List.of("EUR=3", "GBP=3", "USD=3"), reduce(e -> java.util.Map.of("currency", e.key())));
  }

  @Test
  void aOneEntryMapOfKeyKeepsItsStateAcrossARestore() throws Exception {
    Function<Event, Object> key = e -> java.util.Map.of("currency", e.key());
    StateBackend backend = StateBackend.inMemory();
    CheckpointStore store = CheckpointStore.inMemory();
    CollectingSink<String> out = Sinks.collecting();
    RunOptions options =
        RunOptions.named("map1")
            .parallelism(1)
            .stateBackend(backend)
            .checkpointStore(store)
            .build();
    List<Record<Event>> first = input();
    List<Record<Event>> all = new ArrayList<>(first);
    all.add(Record.of(new Event("EUR", 300, 1)));
    for (List<Record<Event>> in : List.of(first, all)) {
      Pipeline.from(Sources.fromRecords(in, 10))
          .keyBy(key, 2)
          .reduce(
              (a, b) -> new Event(a.key(), b.time(), a.value() + b.value()),
              Serdes.json(Event.class))
          .map(e -> e.key() + "=" + e.value())
          .to(out)
          .run(options);
    }
    org.junit.jupiter.api.Assertions.assertTrue(
        out.values().contains("EUR=4"), out.values()::toString);
  }

  @Test
  void aCurrencyKeyKeepsItsWindowsAcrossARestore() throws Exception {
    Function<Event, Object> key = e -> Currency.getInstance(e.key());
    List<Record<Event>> first = input();
    List<Record<Event>> all = new ArrayList<>(first);
    all.add(Record.of(new Event("EUR", 5_000, 1)));
    StateBackend backend = StateBackend.inMemory();
    CheckpointStore store = CheckpointStore.inMemory();
    CollectingSink<String> out = Sinks.collecting();
    RunOptions.Builder options =
        RunOptions.named("cur").parallelism(1).stateBackend(backend).checkpointStore(store);
    windows(first, key, out).run(options.fireWindowsAtEnd(false).build());
    windows(all, key, out).run(options.fireWindowsAtEnd(true).build());
    assertEquals(
        List.of("EUR@0=3", "EUR@5000=1", "GBP@0=3", "USD@0=3"),
        out.values().stream().sorted().toList());
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
}
