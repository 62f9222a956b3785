package dev.statekit.local.emulation;

import dev.statekit.stream.Record;
import dev.statekit.stream.Source;
import dev.statekit.stream.SourceReader;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.GetRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.Shard;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;

/**
 * A Kinesis stream as a pipeline source, read until it is caught up: every shard is a split, the
 * sequence number the offset, and a restored run resumes after the checkpointed record. For running
 * a pipeline in process over what a stream holds (the demo); on Lambda the event source mapping
 * reads the shards instead.
 */
public final class KinesisSource implements Source<byte[]> {
  private static final int LIMIT = 1000;

  private final KinesisClient kinesis;
  private final String stream;

  /** Reads {@code stream}. */
  public KinesisSource(KinesisClient kinesis, String stream) {
    this.kinesis = kinesis;
    this.stream = stream;
  }

  @Override
  public String name() {
    return "kinesis(" + stream + ")";
  }

  @Override
  public SourceReader<byte[]> open(Map<String, String> positions) {
    Map<String, String> iterators = new LinkedHashMap<>();
    for (Shard shard : kinesis.listShards(b -> b.streamName(stream)).shards()) {
      String after = positions.get(shard.shardId());
      iterators.put(
          shard.shardId(),
          kinesis
              .getShardIterator(
                  b -> {
                    b.streamName(stream).shardId(shard.shardId());
                    if (after == null) {
                      b.shardIteratorType(ShardIteratorType.TRIM_HORIZON);
                    } else {
                      b.shardIteratorType(ShardIteratorType.AFTER_SEQUENCE_NUMBER)
                          .startingSequenceNumber(after);
                    }
                  })
              .shardIterator());
    }
    Map<String, String> read = new HashMap<>(positions);
    return new SourceReader<>() {
      @Override
      public boolean poll(Consumer<Record<byte[]>> out) {
        boolean more = false;
        for (Map.Entry<String, String> shard : iterators.entrySet()) {
          if (shard.getValue() == null) {
            continue;
          }
          GetRecordsResponse response =
              kinesis.getRecords(b -> b.shardIterator(shard.getValue()).limit(LIMIT));
          for (software.amazon.awssdk.services.kinesis.model.Record r : response.records()) {
            out.accept(
                Record.of(
                    r.partitionKey(),
                    r.data().asByteArray(),
                    Record.NO_TIMESTAMP,
                    Map.of(),
                    new dev.statekit.stream.SourcePosition(shard.getKey(), r.sequenceNumber())));
            read.put(shard.getKey(), r.sequenceNumber());
          }
          boolean caughtUp =
              response.millisBehindLatest() == null || response.millisBehindLatest() == 0;
          shard.setValue(
              response.records().isEmpty() && caughtUp ? null : response.nextShardIterator());
          more |= shard.getValue() != null;
        }
        return more;
      }

      @Override
      public Map<String, String> positions() {
        return Map.copyOf(read);
      }
    };
  }
}
