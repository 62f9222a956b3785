package ${package};

import dev.statekit.application.PipelineWiring;
import dev.statekit.types.TypeName;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.FailurePolicy;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.types.Types;
import java.time.Duration;

/**
 * The {@code page-views} pipeline: page views from the views stream, keyed by page, counted in
 * windows of a minute, each count sent to the {@code app/page-counts} egress once its window has
 * passed in event time.
 */
public final class PageViews {
  /** The pipeline's name; its tick is the scheduled task {@code page-views-tick}. */
  public static final String NAME = "page-views";

  /** Where the counts go. */
  public static final TypeName COUNTS = TypeName.of("app", "page-counts");

  /** How late a view may come, behind the latest one seen, and still count. */
  public static final Duration OUT_OF_ORDER = Duration.ofSeconds(5);

  private PageViews() {}

  /** The pipeline over what the wiring gives it (DynamoDB on AWS, memory in tests). */
  public static BatchPipeline pipeline(PipelineWiring wiring) {
    var counts =
        EgressOutput.to(
            wiring.egress(COUNTS), COUNTS, Types.json(COUNTS, PageCount.class));
    var parse = Serdes.json(PageView.class);
    Pipeline pipeline =
        Pipeline.from(BatchSource.records())
            .<PageView>process(
                "parse",
                (record, out) -> {
                  PageView view = parse.decode(record.value());
                  if (view.page() == null || view.page().isBlank()) {
                    throw new IllegalArgumentException("A page view needs a page: " + view);
                  }
                  out.collect(view);
                },
                FailurePolicy.drop())
            .withWatermarks(
                WatermarkStrategy.<PageView>boundedOutOfOrderness(OUT_OF_ORDER)
                    .withTimestamps(PageView::time)
                    .withIdleTimeout(Duration.ofSeconds(30)))
            .keyBy(PageView::page, 2)
            .window(Windows.tumbling(Duration.ofMinutes(1)))
            .aggregate(
                new Count(),
                Serdes.json(Long.class),
                (String page, TimeWindow window, Long views) ->
                    new PageCount(page, window.start(), window.end(), views))
            .to(counts);
    return BatchPipeline.builder(NAME, pipeline)
        .store(wiring.store())
        .batchTimeout(wiring.batchTimeout())
        .clock(wiring.clock())
        .build();
  }

  /** Counts the views of a window. */
  static final class Count implements AggregateFunction<PageView, Long, Long> {
    @Override
    public Long createAccumulator() {
      return 0L;
    }

    @Override
    public Long add(PageView value, Long accumulator) {
      return accumulator + 1;
    }

    @Override
    public Long result(Long accumulator) {
      return accumulator;
    }

    @Override
    public Long merge(Long a, Long b) {
      return a + b;
    }
  }
}
