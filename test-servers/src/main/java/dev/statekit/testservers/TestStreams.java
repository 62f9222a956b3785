package dev.statekit.testservers;

import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.StreamStatus;

/** Kinesis streams for tests and benchmarks, ready to use when made. */
public final class TestStreams {
  private TestStreams() {}

  /** Creates {@code name} with {@code shards} shards and waits until it is active. */
  public static void create(KinesisClient kinesis, String name, int shards)
      throws InterruptedException {
    kinesis.createStream(b -> b.streamName(name).shardCount(shards));
    awaitActive(kinesis, name);
  }

  /** Waits until {@code name} is active again (after a reshard), at most 10 s. */
  public static void awaitActive(KinesisClient kinesis, String name) throws InterruptedException {
    for (int i = 0; i < 200; i++) {
      StreamStatus status =
          kinesis.describeStream(b -> b.streamName(name)).streamDescription().streamStatus();
      if (status == StreamStatus.ACTIVE) {
        return;
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("The Kinesis stream " + name + " did not become active");
  }
}
