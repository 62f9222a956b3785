package dev.statekit.handlers;

import dev.statekit.entry.EntryPoint;
import dev.statekit.stream.lambda.BatchPipeline;

/**
 * The Lambda handler of a function that runs one {@link BatchPipeline}: Kinesis and DynamoDB
 * Streams events answer a {@code StreamsEventResponse} (the first failed sequence number of the
 * shard, where Lambda resumes), SQS events an {@code SQSBatchResponse} (the failed message ids),
 * and an EventBridge scheduled event runs the pipeline's {@linkplain BatchPipeline#tick() tick}.
 *
 * <p>It reads the events with the entry point's reader and converts them with {@link
 * dev.statekit.stream.lambda.SourceBatches}, so that a pipeline behind the application's one {@link
 * StateKitHandler} and behind this handler see the same records. The event source mapping needs
 * {@code FunctionResponseTypes: [ReportBatchItemFailures]}.
 *
 * <pre>{@code
 * public final class ClicksHandler extends PipelineHandler {
 *   public ClicksHandler() {
 *     super(Clicks.pipeline(new DynamoDbBatchStore(DynamoDbClient.create(), System.getenv("TABLE"))));
 *   }
 * }
 * }</pre>
 */
public class PipelineHandler extends StateKitHandler {
  /** The name of the tick in the answer to a scheduled event. */
  public static final String TICK = "tick";

  private final BatchPipeline pipeline;

  /** Answers every batch event and the scheduled tick with {@code pipeline}. */
  public PipelineHandler(BatchPipeline pipeline) {
    super(entryPoint(pipeline));
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
        .build();
  }
}
