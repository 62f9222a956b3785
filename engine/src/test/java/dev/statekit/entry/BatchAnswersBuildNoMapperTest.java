package dev.statekit.entry;

import static dev.statekit.json.ClassLoadLog.MAPPER_BUILT;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.event.BatchOutcome;
import dev.statekit.json.ClassLoadLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A cold start's first queue and stream batches, in a fresh JVM: routing the batch and answering
 * Lambda's {@code batchItemFailures} must not build Jackson's {@code ObjectMapper} (a few hundred
 * milliseconds of class loading that a batch of strings or protobuf never needs). The class loading
 * log is the evidence; the answers are checked too.
 */
class BatchAnswersBuildNoMapperTest {
  private static final Path SQS_FIXTURE = Path.of("..", "events", "sqs-ingress.json");

  @Test
  void aQueueBatchIsAnsweredWithoutAMapper() throws Exception {
    String log = ClassLoadLog.of(Batches.class.getName(), SQS_FIXTURE.toString());

    assertTrue(log.contains("BATCHES DONE"), log);
    assertFalse(log.contains(MAPPER_BUILT), "a batch's answer built an ObjectMapper");
  }

  @Test
  void theMarkerIsWhatABuiltMapperLoads() throws Exception {
    // Without this, a renamed Jackson class would let the test above pass whatever happens.
    String log = ClassLoadLog.of(BuildMapper.class.getName());

    assertTrue(log.contains(MAPPER_BUILT), MAPPER_BUILT + "is not what a built mapper loads");
  }

  /** The repository's SQS fixture through an entry point whose consumer fails its first record. */
  static final class Batches {
    public static void main(String[] args) throws IOException {
      EntryPoint entry =
          EntryPoint.builder()
              .anyQueue(records -> new BatchOutcome(List.of(records.get(0).messageId())))
              .build();
      String answer =
          new String(entry.invoke(Files.readAllBytes(Path.of(args[0]))), StandardCharsets.UTF_8);
      if (!answer.matches("\\{\"batchItemFailures\":\\[\\{\"itemIdentifier\":\"[^\"]+\"}]}")) {
        throw new IllegalStateException("not the answer Lambda expects: " + answer);
      }
      System.out.println("BATCHES DONE");
    }
  }

  /** Builds a mapper, to show what the marker catches. */
  static final class BuildMapper {
    public static void main(String[] args) {
      new com.fasterxml.jackson.databind.ObjectMapper();
    }
  }
}
