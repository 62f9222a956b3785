package dev.statekit.stream.lambda.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.lambda.TimerItem;
import dev.statekit.stream.lambda.internal.BatchWindowOperator.Opened;
import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A busy pipeline with sliding windows writes a timer item per batch, and every item written within
 * one slide has the same first window end: when that end comes due they are read and fired
 * together, however many there are, and each leaves a rest with its later windows. Firing them must
 * take time in proportion to their number. It took time in proportion to its square (each rest was
 * checked against every rest before it), which for 200,000 items is hours: a Lambda invocation that
 * times out and retries the same firing for ever, the pipeline stalled.
 */
class IndexFireManyDueTest {
  private static final int ITEMS = 200_000;

  @SuppressWarnings("unchecked")
  private static final Serde<Object> KEYS = (Serde<Object>) (Serde<?>) Serdes.string();

  @Test
  void itemsComingDueTogetherFireInTimeProportionalToTheirNumber() {
    Pipeline pipeline =
        Pipeline.from(BatchSource.records())
            .withWatermarks(
                WatermarkStrategy.<byte[]>boundedOutOfOrderness(Duration.ZERO)
                    .withTimestamps(bytes -> 0L))
            .keyBy(bytes -> new String(bytes, StandardCharsets.UTF_8))
            .window(Windows.sliding(Duration.ofSeconds(3), Duration.ofSeconds(1)))
            .aggregate(
                AggregateFunction.<byte[]>count(),
                Serdes.longs(),
                (String key, TimeWindow w, Long n) -> key + "=" + n)
            .to(EgressOutput.to(records -> {}, TypeName.of("test", "due"), Types.stringType()));
    TimerCodec codec = new TimerCodec(KEYS);
    List<TimerItem> items = new ArrayList<>(ITEMS);
    for (int i = 0; i < ITEMS; i++) {
      List<Opened> opened = new ArrayList<>();
      for (long start = -2_000; start <= 0; start += 1_000) {
        opened.add(new Opened("k" + i, new TimeWindow(start, start + 3_000)));
      }
      items.addAll(codec.encode(opened, "orders/shardId-" + i));
    }
    long firstEnd = items.get(0).minTime();

    IndexFire fire =
        assertTimeoutPreemptively(
            Duration.ofSeconds(60),
            () ->
                new IndexFire(
                    items.subList(0, 100),
                    100,
                    time -> items,
                    firstEnd - 1,
                    firstEnd,
                    codec,
                    new PlanShape(pipeline),
                    Set.of()));

    assertEquals(firstEnd, fire.through);
    assertEquals(ITEMS, fire.windows.size(), "keys with a window due");
    assertEquals(ITEMS, fire.covered.size(), "items consumed");
    assertEquals(ITEMS, fire.rests.size(), "rests, one per item");
  }
}
