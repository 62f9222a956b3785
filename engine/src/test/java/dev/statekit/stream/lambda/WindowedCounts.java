package dev.statekit.stream.lambda;

import dev.statekit.egress.EgressSink;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.DataStream;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.WindowedStream;
import dev.statekit.stream.Windows;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * A windowed plan several batch tests share: records "key,time" (event time in ms, no
 * out-of-orderness allowed), counted per key in 10 ms tumbling windows, each result "key@start=n"
 * to the egress {@code test/counts}; and queue batches of such records.
 */
final class WindowedCounts {
  private WindowedCounts() {}

  /** The plan, the counts to {@code results}. */
  static Pipeline plan(EgressSink results) {
    return plan(UnaryOperator.identity(), results, null);
  }

  /**
   * The plan with {@code before} between the watermarks and the {@code keyBy}, the counts to {@code
   * results} and late records (as egress {@code test/late}) to {@code late} unless it is null.
   */
  static Pipeline plan(
      UnaryOperator<DataStream<String>> before, EgressSink results, EgressSink late) {
    DataStream<String> timed =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
            .withWatermarks(
                WatermarkStrategy.<String>boundedOutOfOrderness(Duration.ZERO)
                    .withTimestamps(s -> Long.parseLong(s.split(",")[1])));
    WindowedStream<String, String> windowed =
        before
            .apply(timed)
            .keyBy(s -> s.split(",")[0])
            .window(Windows.tumbling(Duration.ofMillis(10)));
    if (late != null) {
      windowed =
          windowed.lateRecordsTo(
              EgressOutput.to(late, TypeName.of("test", "late"), Types.stringType()));
    }
    return windowed
        .aggregate(
            AggregateFunction.<String>count(),
            Serdes.longs(),
            (String key, dev.statekit.stream.TimeWindow w, Long n) ->
                key + "@" + w.start() + "=" + n)
        .to(EgressOutput.to(results, TypeName.of("test", "counts"), Types.stringType()));
  }

  /** A batch of queue {@code split}: pairs of message id and text "key,time". */
  static SourceBatch queue(String split, String... idText) {
    SourceBatch.Builder batch = SourceBatch.unordered(split);
    for (int i = 0; i < idText.length; i += 2) {
      batch.add(idText[i], 0, idText[i + 1].getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }
}
