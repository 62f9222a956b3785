package dev.statekit.stream.lambda;

import dev.statekit.stream.Source;
import dev.statekit.stream.SourceReader;
import java.util.Map;

/**
 * The source of a pipeline that Lambda feeds batch by batch: {@code
 * Pipeline.from(BatchSource.records())}. Its records are byte arrays (a Kinesis record's data, a
 * DynamoDB stream record as JSON, an SQS body), decoded by the pipeline's first operators. The
 * pipeline runs with {@link BatchPipeline}; it cannot be read by {@code Pipeline.run}.
 */
public final class BatchSource implements Source<byte[]> {
  private static final BatchSource RECORDS = new BatchSource();

  private BatchSource() {}

  /** The records of the batches a {@link BatchPipeline} is given. */
  public static BatchSource records() {
    return RECORDS;
  }

  @Override
  public SourceReader<byte[]> open(Map<String, String> positions) {
    throw new IllegalStateException(
        "BatchSource.records() is fed by Lambda batches: run this pipeline with"
            + " BatchPipeline.builder(name, pipeline), not Pipeline.run");
  }

  @Override
  public String name() {
    return "lambda-batches";
  }
}
