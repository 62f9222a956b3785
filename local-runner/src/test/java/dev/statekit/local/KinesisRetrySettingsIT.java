package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.local.testapp.PoisonHandler;
import dev.statekit.testservers.RealServers;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * serve emulates a Kinesis event source mapping as the template configures it: as Lambda does, it
 * gives a failing batch up after MaximumRetryAttempts retries (template.yaml's Transactions: 10),
 * records it in the OnFailure destination and reads on; without ReportBatchItemFailures in
 * FunctionResponseTypes it ignores an answer's batchItemFailures; and it reads a shard's children
 * after a split. Before, the poller retried a failing batch for ever (the shard stalled, and the
 * given-up path the pipeline and docs/pipelines.md build on was never reached locally), honoured
 * batchItemFailures Lambda would ignore (a template that forgot FunctionResponseTypes worked
 * locally and lost the failed records on Lambda), and never read a child shard.
 */
@ExtendWith(RealServers.class)
class KinesisRetrySettingsIT {
  private static final String PREFIX = "kr-" + UUID.randomUUID().toString().substring(0, 6);
  private static final StringWriter OUTPUT = new StringWriter();
  private static ServeCommand.Running running;

  @BeforeAll
  static void serve() throws Exception {
    CommandLine command = new CommandLine(new ServeCommand());
    command.setOut(new PrintWriter(OUTPUT, true));
    command.parseArgs(
        "--port",
        "0",
        "--prefix",
        PREFIX,
        "--template",
        Path.of("src/test/resources/kinesis-retry-template.yaml").toString());
    running = ((ServeCommand) command.getCommand()).start();
  }

  @AfterAll
  static void stop() {
    running.close();
  }

  @Test
  void aBatchThatKeepsFailingIsGivenUpAfterMaximumRetryAttemptsAndTheShardReadsOn(
      KinesisClient kinesis, SqsClient sqs) throws Exception {
    String stream = PREFIX + "-Given";
    put(kinesis, stream, "poison");
    await(() -> count(stream + ":poison") >= 2, "the poison batch handed over and retried");
    Thread.sleep(5_000); // the poller retries a failed batch every second

    assertEquals(
        2, count(stream + ":poison"), "one attempt and MaximumRetryAttempts 1 retry: " + seen());
    String givenUp = sqs.getQueueUrl(b -> b.queueName(PREFIX + "-GivenUp")).queueUrl();
    assertEquals(
        1,
        sqs.receiveMessage(b -> b.queueUrl(givenUp).waitTimeSeconds(2)).messages().size(),
        "the given-up batch recorded in the OnFailure destination");
    put(kinesis, stream, "after");
    await(() -> count(stream + ":after") >= 1, "the record after the given-up batch read");
  }

  @Test
  void withoutReportBatchItemFailuresAnAnswersFailuresAreIgnored(KinesisClient kinesis)
      throws Exception {
    String stream = PREFIX + "-Plain";
    put(kinesis, stream, "flaky");
    await(() -> count(stream + ":flaky") >= 1, "the record handed over");
    put(kinesis, stream, "next");
    await(() -> count(stream + ":next") >= 1, "the next record read");

    assertEquals(
        1,
        count(stream + ":flaky"),
        "no FunctionResponseTypes: Lambda takes the batch as done, reads nothing again: " + seen());
  }

  /**
   * After a shard is split (or merged) its records continue in its child shards, which Lambda reads
   * once the parent is done. The poller listed the shards once, when it started: the children were
   * never read, and no record written after the split reached the function.
   */
  @Test
  void recordsOfAShardsChildrenAreReadAfterASplit(KinesisClient kinesis) throws Exception {
    String stream = PREFIX + "-Resharded";
    put(kinesis, stream, "before");
    await(() -> count(stream + ":before") == 1, "the record before the split read");
    String parent = kinesis.listShards(b -> b.streamName(stream)).shards().get(0).shardId();
    kinesis.splitShard(
        b ->
            b.streamName(stream)
                .shardToSplit(parent)
                .newStartingHashKey(java.math.BigInteger.TWO.pow(127).toString()));
    await(
        () ->
            kinesis
                .describeStreamSummary(b -> b.streamName(stream))
                .streamDescriptionSummary()
                .streamStatusAsString()
                .equals("ACTIVE"),
        "the split done");
    for (int i = 0; i < 4; i++) {
      // Keys on either side of the split: both children get records.
      int n = i;
      kinesis.putRecord(
          b ->
              b.streamName(stream)
                  .partitionKey("key-" + n)
                  .data(SdkBytes.fromUtf8String("after-" + n)));
    }

    await(
        () -> seen().stream().filter(s -> s.startsWith(stream + ":after-")).count() == 4,
        "the records written after the split read from the child shards");
  }

  private static void put(KinesisClient kinesis, String stream, String data) {
    kinesis.putRecord(
        b -> b.streamName(stream).partitionKey("k").data(SdkBytes.fromUtf8String(data)));
  }

  private static List<String> seen() {
    return List.copyOf(PoisonHandler.SEEN);
  }

  private static long count(String value) {
    return seen().stream().filter(value::equals).count();
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 30_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError(
            "Timed out waiting for " + what + "; seen: " + seen() + "\n" + tail(OUTPUT.toString()));
      }
      Thread.sleep(100);
    }
  }

  private static String tail(String text) {
    return text.length() <= 1500 ? text : text.substring(text.length() - 1500);
  }
}
