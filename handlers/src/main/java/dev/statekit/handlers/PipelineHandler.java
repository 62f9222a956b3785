package dev.statekit.handlers;

import dev.statekit.entry.EntryPoint;
import dev.statekit.entry.EntryPointBuilder;
import dev.statekit.stream.lambda.BatchPipeline;
import java.util.List;

/**
 * The Lambda handler of a function that runs one {@link BatchPipeline}: Kinesis and DynamoDB
 * Streams events answer a {@code StreamsEventResponse} (the first failed sequence number of the
 * shard, where Lambda resumes), SQS events an {@code SQSBatchResponse} (the failed message ids),
 * and an EventBridge scheduled event runs the pipeline's {@linkplain BatchPipeline#tick() tick}.
 *
 * <p>It reads the events with the entry point's reader and converts them with {@link
 * dev.statekit.stream.lambda.SourceBatches}, so that a pipeline behind the application's one {@link
 * StateKitHandler} and behind this handler see the same records. The event source mapping needs
 * {@code FunctionResponseTypes: [ReportBatchItemFailures]}. A queue's dead-letter queue may be
 * among the sources: its messages name the queue they were moved from, and are taken as that
 * queue's, under their ids, so that one applied before is not applied again ({@link
 * BatchPipeline#deadLetterConsumer}).
 *
 * <pre>{@code
 * public final class ClicksHandler extends PipelineHandler {
 *   public ClicksHandler() {
 *     super(
 *         Clicks.pipeline(new DynamoDbBatchStore(DynamoDbClient.create(), System.getenv("TABLE"))),
 *         List.of(System.getenv("STREAM_ARN"), System.getenv("TICK_RULE_ARN")));
 *   }
 * }
 * }</pre>
 */
public class PipelineHandler extends StateKitHandler {
  /** The name of the tick in the answer to a scheduled event. */
  public static final String TICK = "tick";

  private final BatchPipeline pipeline;

  /**
   * Answers the batch events of every queue, stream and table, and every scheduled event, with
   * {@code pipeline}. Whoever may invoke the function could then pass their own events off as any
   * source's: use it only for a function nothing but its event source mappings and schedule may
   * invoke, and prefer {@link #PipelineHandler(BatchPipeline, List)}.
   */
  public PipelineHandler(BatchPipeline pipeline) {
    super(entryPoint(pipeline));
    this.pipeline = pipeline;
  }

  /**
   * Answers the batch events and scheduled events of the sources named, and refuses the others.
   *
   * @param sources the ARNs of the queues, streams (Kinesis, or a table's DynamoDB stream) and
   *     EventBridge rules the function's events come from
   * @throws IllegalArgumentException if one is not such an ARN
   */
  public PipelineHandler(BatchPipeline pipeline, List<String> sources) {
    super(entryPoint(pipeline, sources));
    this.pipeline = pipeline;
  }

  /** The pipeline this handler runs. */
  public BatchPipeline pipeline() {
    return pipeline;
  }

  /** The routes of a function running only {@code pipeline}, whatever its sources are named. */
  static EntryPoint entryPoint(BatchPipeline pipeline) {
    return EntryPoint.builder()
        .anyKinesisStream(pipeline.kinesisConsumer())
        .anyDynamoDbStream(pipeline.dynamoDbConsumer())
        .anyQueue(pipeline.queueConsumer())
        .scheduled(TICK, pipeline.tickTask())
        .anyScheduleRule()
        .build();
  }

  /** The routes of a function running only {@code pipeline}, for these sources only. */
  static EntryPoint entryPoint(BatchPipeline pipeline, List<String> sources) {
    EntryPointBuilder routes = EntryPoint.builder().scheduled(TICK, pipeline.tickTask());
    for (String arn : sources) {
      String[] parts = arn.split(":", 4);
      String service = parts.length == 4 && parts[0].equals("arn") ? parts[2] : "";
      switch (service) {
        case "sqs" -> routes.queue(arn, pipeline.queueConsumer());
        case "kinesis" -> routes.kinesisStream(arn, pipeline.kinesisConsumer());
        case "dynamodb" -> routes.dynamoDbStream(arn, pipeline.dynamoDbConsumer());
        case "events" -> routes.scheduleRule(arn);
        default ->
            throw new IllegalArgumentException(
                "'"
                    + arn
                    + "' is not the ARN of a queue, a stream or a rule (arn:aws:sqs:...,"
                    + " arn:aws:kinesis:..., arn:aws:dynamodb:..., arn:aws:events:...)");
      }
    }
    return routes.build();
  }
}
