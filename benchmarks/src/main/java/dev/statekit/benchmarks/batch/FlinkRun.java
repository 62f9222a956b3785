package dev.statekit.benchmarks.batch;

import dev.statekit.examples.fraud.Alert;
import dev.statekit.examples.fraud.CardActivity;
import dev.statekit.examples.fraud.FraudCheck;
import dev.statekit.examples.fraud.FraudRules;
import dev.statekit.examples.fraud.Transaction;
import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.serde.Serdes;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * The same two jobs on Flink's local execution (streaming mode, heap state, parallelism 1): the
 * same JSON bytes parsed with the same decoder, 30 s out-of-orderness watermarks, keyBy card, the
 * same windows and rules, a counting sink.
 */
final class FlinkRun {
  /** The input, shared with the job's functions (Flink serializes functions, not this array). */
  static volatile byte[][] data;

  static final LongAdder COUNT = new LongAdder();

  private FlinkRun() {}

  /** Runs {@code job} over {@code input}; returns the outputs. */
  static long run(Jobs job, byte[][] input) throws Exception {
    data = input;
    COUNT.reset();
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
    env.setParallelism(1);
    DataStream<Transaction> transactions =
        env.fromSequence(0, input.length - 1)
            .map(i -> Parse.JSON.decode(data[(int) (long) i]))
            .returns(Transaction.class)
            .assignTimestampsAndWatermarks(
                WatermarkStrategy.<Transaction>forBoundedOutOfOrderness(FraudCheck.OUT_OF_ORDER)
                    .withTimestampAssigner((t, ts) -> t.time()));
    if (job == Jobs.FRAUD) {
      transactions
          .keyBy(Transaction::card)
          .window(SlidingEventTimeWindows.of(FraudCheck.WINDOW, FraudCheck.SLIDE))
          .aggregate(new Activity(), new Alerts())
          .sinkTo(new CountingSink<>());
    } else {
      transactions
          .keyBy(Transaction::card)
          .window(TumblingEventTimeWindows.of(Duration.ofMinutes(1)))
          .aggregate(new Count(), new Counts())
          .returns(Types.STRING)
          .sinkTo(new CountingSink<>());
    }
    env.execute("batch-engine " + job.label);
    return COUNT.sum();
  }

  /** The decoder, outside any function Flink serializes. */
  static final class Parse {
    static final Serde<Transaction> JSON = Serdes.json(Transaction.class);

    private Parse() {}
  }

  static final class Activity
      implements AggregateFunction<Transaction, CardActivity, CardActivity> {
    private static final long serialVersionUID = 1L;

    @Override
    public CardActivity createAccumulator() {
      return CardActivity.NONE;
    }

    @Override
    public CardActivity add(Transaction value, CardActivity accumulator) {
      return accumulator.add(value);
    }

    @Override
    public CardActivity getResult(CardActivity accumulator) {
      return accumulator;
    }

    @Override
    public CardActivity merge(CardActivity a, CardActivity b) {
      return a.merge(b);
    }
  }

  /** The fraud check's rules on each window's activity, as its pipeline applies them. */
  static final class Alerts extends ProcessWindowFunction<CardActivity, Alert, String, TimeWindow> {
    private static final long serialVersionUID = 1L;

    @Override
    public void process(
        String card, Context context, Iterable<CardActivity> activities, Collector<Alert> out) {
      CardActivity activity = activities.iterator().next();
      FraudRules.DEFAULT
          .broken(activity)
          .ifPresent(
              reason ->
                  out.collect(
                      new Alert(
                          card,
                          context.window().getStart(),
                          context.window().getEnd(),
                          activity.count(),
                          activity.totalCents(),
                          activity.countries(),
                          reason)));
    }
  }

  static final class Count implements AggregateFunction<Transaction, Long, Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public Long createAccumulator() {
      return 0L;
    }

    @Override
    public Long add(Transaction value, Long accumulator) {
      return accumulator + 1;
    }

    @Override
    public Long getResult(Long accumulator) {
      return accumulator;
    }

    @Override
    public Long merge(Long a, Long b) {
      return a + b;
    }
  }

  static final class Counts extends ProcessWindowFunction<Long, String, String, TimeWindow> {
    private static final long serialVersionUID = 1L;

    @Override
    public void process(
        String card, Context context, Iterable<Long> counts, Collector<String> out) {
      out.collect(card + "@" + context.window().getStart() + "=" + counts.iterator().next());
    }
  }

  /** Counts in a plain field per writer, published on close. */
  static final class CountingSink<T> implements Sink<T> {
    private static final long serialVersionUID = 1L;

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
      return new SinkWriter<>() {
        private long n;

        @Override
        public void write(T element, Context context) {
          n++;
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() {
          COUNT.add(n);
        }
      };
    }
  }
}
