package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.entry.EntryPoint;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A DynamoDB stream batch whose changes together take longer than the function's timeout (a map
 * calling a slow dependency, 50 ms a change, 100 changes, a 3 s timeout). Lambda cut it off before
 * its checkpoint on every try, until the stream's retention (24 hours) dropped the changes. The
 * batch now stops taking changes while a reserve of its time is left, applies what it took and
 * answers the first change it did not take and every change after it as failed: Lambda hands the
 * shard over again from there, and every change is applied once, in order.
 */
class ChangeBatchPastTheDeadlineTest {
  private static final int CHANGES = 100;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final BigInteger FIRST = new BigInteger("4421584500000000017450439091");

  private static String sequence(int i) {
    return FIRST.add(BigInteger.valueOf(10L * i)).toString();
  }

  private static int indexOf(String sequence) {
    return new BigInteger(sequence).subtract(FIRST).divide(BigInteger.TEN).intValueExact();
  }

  private static String slowN(byte[] change) {
    DeadlineTries.slowly();
    try {
      return JSON.readTree(change).path("newImage").path("n").asText();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void aBatchLongerThanTheTimeoutIsTakenOverSeveralTriesEachChangeOnceInOrder() {
    DeadlineTries tries =
        new DeadlineTries(
            sink -> {
              BatchPipeline pipeline =
                  BatchPipeline.builder(
                          "slow-map",
                          Pipeline.from(BatchSource.records())
                              .map(ChangeBatchPastTheDeadlineTest::slowN)
                              .keyBy(text -> "k" + Integer.parseInt(text) % 4)
                              .reduce((a, b) -> a + " " + b, Serdes.string())
                              .to(
                                  EgressOutput.to(
                                      sink, TypeName.of("test", "runs"), Types.stringType())))
                      .store(new InMemoryBatchStore())
                      .batchTimeout(DeadlineTries.TIMEOUT)
                      .build();
              return EntryPoint.builder()
                  .dynamoDbStream("orders", pipeline.dynamoDbConsumer())
                  .build();
            });

    int from = 0;
    int rounds = 0;
    while (true) {
      rounds++;
      assertTrue(rounds <= 20, "the changes were not all taken in 20 tries");
      List<LambdaEvents.Change> handed = new ArrayList<>();
      for (int i = from; i < CHANGES; i++) {
        handed.add(new LambdaEvents.Change(sequence(i), "order#" + i % 4, i, 1_700_000_000L + i));
      }
      List<String> failed = tries.invoke(LambdaEvents.dynamoDb("orders", handed), handed.size());
      if (failed.isEmpty()) {
        break;
      }
      int lowest =
          failed.stream().mapToInt(ChangeBatchPastTheDeadlineTest::indexOf).min().getAsInt();
      assertEquals(
          IntStream.range(lowest, CHANGES)
              .mapToObj(ChangeBatchPastTheDeadlineTest::sequence)
              .toList(),
          failed.stream().sorted((a, b) -> new BigInteger(a).compareTo(new BigInteger(b))).toList(),
          "the first change not taken and every change after it go back");
      assertTrue(lowest > from, "try " + rounds + " took none of its changes");
      from = lowest;
    }

    assertTrue(rounds > 1, "the batch fitted in one try: " + tries.tries());
    assertEquals(CHANGES, tries.outputs().size(), "one output per change");
    assertEquals(
        DeadlineTries.runningConcatenations(
            IntStream.range(0, CHANGES).boxed().toList(), i -> "k" + i % 4),
        new HashSet<>(tries.outputs().values()));
  }
}
