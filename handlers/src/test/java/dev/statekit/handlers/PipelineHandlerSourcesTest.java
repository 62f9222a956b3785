package dev.statekit.handlers;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.lambda.InMemoryBatchStore;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PipelineHandler(pipeline, sources) documents "@throws IllegalArgumentException if one is not such
 * an ARN", the constructor's clear error for a misconfigured source variable. A truncated ARN (an
 * environment variable cut short, "arn:aws") failed it with an ArrayIndexOutOfBoundsException that
 * named nothing.
 */
class PipelineHandlerSourcesTest {

  private static BatchPipeline pipeline() {
    Pipeline pipeline =
        Pipeline.from(BatchSource.records())
            .map("text", (byte[] bytes) -> new String(bytes, StandardCharsets.UTF_8))
            .to(
                EgressOutput.to(
                    new CollectingEgressSink(), TypeName.of("test", "out"), Types.stringType()));
    return BatchPipeline.builder("p", pipeline).store(new InMemoryBatchStore()).build();
  }

  @Test
  void aTruncatedSourceArnIsRefusedNamingIt() {
    for (String source : List.of("arn:aws", "arn:", "arn:aws:sqs")) {
      var e =
          assertThrows(
              IllegalArgumentException.class,
              () -> new PipelineHandler(pipeline(), List.of(source)),
              source);
      assertTrue(e.getMessage().contains(source), e.getMessage());
    }
  }
}
