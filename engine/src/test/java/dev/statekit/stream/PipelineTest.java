package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.ListState;
import dev.statekit.stream.state.MapState;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.ValueState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PipelineTest {
  private static List<Event> events(int n, int keys, long seed) {
    Random random = new Random(seed);
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      events.add(new Event("k" + random.nextInt(keys), i, random.nextInt(100) - 20));
    }
    return events;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void statelessOperatorsThenReduceMatchAReference(int parallelism) throws Exception {
    List<Event> input = events(5000, 37, parallelism);
    CollectingSink<Long> sink = Sinks.collecting();
    Pipeline.from(Sources.fromList(input))
        .filter(e -> e.value() >= 0)
        .flatMap(
            (Event e, Collector<Event> out) -> {
              out.collect(e);
              if (e.value() % 10 == 0) {
                out.collect(new Event(e.key(), e.time(), 1));
              }
            })
        .map(e -> new Event(e.key(), e.time(), e.value() * 2))
        .keyBy(Event::key, parallelism)
        .reduce((a, b) -> new Event(a.key(), b.time(), a.value() + b.value()))
        .map(Event::value)
        .to(sink)
        .run(RunOptions.named("reduce").build());

    Map<String, List<Long>> expected = new TreeMap<>();
    Map<String, Long> sums = new HashMap<>();
    for (Event e : input) {
      if (e.value() < 0) {
        continue;
      }
      List<Long> values = new ArrayList<>(List.of(e.value() * 2));
      if (e.value() % 10 == 0) {
        values.add(2L);
      }
      for (long v : values) {
        long sum = sums.merge(e.key(), v, Long::sum);
        expected.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(sum);
      }
    }
    Map<String, List<Long>> actual = new TreeMap<>();
    for (Record<Long> r : sink.committed()) {
      actual.computeIfAbsent((String) r.key(), k -> new ArrayList<>()).add(r.value());
    }
    assertEquals(expected, actual, "each key's running sums, in order");
  }

  @Test
  void graphShowsStagesWithChainedOperators() {
    Pipeline pipeline =
        Pipeline.from(Sources.fromList(List.of(1L, 2L)))
            .map(v -> v + 1)
            .filter(v -> v > 0)
            .keyBy(v -> v % 2, 4)
            .reduce(Long::sum)
            .map(v -> v * 10)
            .to(Sinks.discard());
    PipelineGraph graph = pipeline.graph(RunOptions.named("g").build());
    assertEquals(2, graph.stages().size(), graph.toString());
    assertEquals(1, graph.stages().get(0).parallelism());
    assertEquals(
        List.of("map", "filter"),
        graph.stages().get(0).operators().stream().map(OperatorDescription::type).toList());
    assertEquals(4, graph.stages().get(1).parallelism());
    assertEquals("4", graph.stages().get(1).input().config().get("partitions"));
    assertEquals(
        List.of("reduce", "map", "sink"),
        graph.stages().get(1).operators().stream().map(OperatorDescription::type).toList());
  }

  @Test
  void keyedOperatorsMustFollowKeyByAndWatermarksPrecedeIt() {
    Pipeline late =
        Pipeline.from(Sources.fromList(List.of(1L)))
            .keyBy(v -> v)
            .reduce(Long::sum)
            .withWatermarks(
                WatermarkStrategy.<Long>boundedOutOfOrderness(java.time.Duration.ZERO)
                    .withTimestamps(v -> v))
            .to(Sinks.discard());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> late.graph(RunOptions.named("x").build()));
    assertTrue(e.getMessage().contains("before the first keyBy"), e.getMessage());
  }

  @Test
  void nullKeysFailThePipelineWithTheRecord() {
    Pipeline pipeline =
        Pipeline.from(Sources.fromList(List.of("a", "b")))
            .keyBy(v -> v.equals("b") ? null : v)
            .reduce((a, b) -> a + b)
            .to(Sinks.discard());
    PipelineFailedException e =
        assertThrows(
            PipelineFailedException.class, () -> pipeline.run(RunOptions.named("nulls").build()));
    assertInstanceOf(IllegalArgumentException.class, e.getCause());
    assertTrue(e.getMessage().contains("value=b"), e.getMessage());
  }

  record Order(String customer, int cents) {}

  @Test
  void bytesAreDecodedAndEncodedWithSerdes() throws Exception {
    Serde<Order> json = Serdes.json(Order.class);
    List<byte[]> raw =
        List.of(
            json.encode(new Order("ann", 5)),
            json.encode(new Order("bob", 7)),
            json.encode(new Order("ann", 11)));
    CollectingSink<byte[]> sink = Sinks.collecting();
    Pipeline.from(Sources.fromList(raw))
        .decode(json)
        .keyBy(Order::customer)
        .reduce((a, b) -> new Order(a.customer(), a.cents() + b.cents()), json)
        .encode(json)
        .to(sink)
        .run(RunOptions.named("bytes").build());
    List<Order> out = sink.values().stream().map(json::decode).toList();
    assertEquals(List.of(new Order("ann", 5), new Order("bob", 7), new Order("ann", 16)), out);
  }

  @Test
  void keyedProcessFunctionsUseValueListAndMapState() throws Exception {
    StateSpec<ValueState<Long>> count = StateSpec.value("count", Serdes.longs());
    StateSpec<ListState<String>> seen = StateSpec.list("seen", Serdes.string());
    StateSpec<MapState<String, Long>> perValue =
        StateSpec.map("per-value", Serdes.string(), Serdes.longs());
    CollectingSink<String> sink = Sinks.collecting();
    Pipeline.from(Sources.fromList(List.of("a:x", "b:y", "a:y", "a:x")))
        .keyBy(v -> v.split(":")[0], 2)
        .process(
            (Record<String> r, KeyedContext<String> ctx, Collector<String> out) -> {
              String value = r.value().split(":")[1];
              ValueState<Long> c = ctx.state(count);
              c.update(c.value() == null ? 1 : c.value() + 1);
              ctx.state(seen).add(value);
              MapState<String, Long> m = ctx.state(perValue);
              m.put(value, m.contains(value) ? m.get(value) + 1 : 1);
              out.collect(
                  ctx.key() + c.value() + ctx.state(seen).get() + new TreeMap<>(m.entries()));
            },
            count,
            seen,
            perValue)
        .to(sink)
        .run(RunOptions.named("process").build());
    assertEquals(
        List.of("a1[x]{x=1}", "a2[x, y]{x=1, y=1}", "a3[x, y, x]{x=2, y=1}", "b1[y]{y=1}"),
        sink.values().stream().sorted().toList());
  }

  @Test
  void stopDrainsRecordsInFlightAndCheckpoints() throws Exception {
    CountingSink<Long> sink = Sinks.counting();
    var endless = Sources.generate(Long.MAX_VALUE, i -> i, i -> i, 100);
    RunningPipeline running =
        Pipeline.from(endless)
            .keyBy(v -> v % 5, 2)
            .reduce(Long::sum)
            .to(sink)
            .start(RunOptions.named("stop").build());
    Thread.sleep(200);
    running.stop();
    PipelineResult result = running.await();
    assertTrue(result.recordsRead() > 0);
    assertEquals(result.recordsRead(), sink.count(), "every record read reached the sink");
    assertEquals(1, result.checkpoints());
  }
}
