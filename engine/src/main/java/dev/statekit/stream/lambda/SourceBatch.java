package dev.statekit.stream.lambda;

import dev.statekit.stream.Record;
import dev.statekit.stream.SourcePosition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One batch of source records from one split, as a Lambda event source mapping hands it over: a
 * Kinesis or DynamoDB Streams shard ({@link #ordered}: offsets are the records' sequence numbers,
 * increasing) or an SQS queue ({@link #unordered}: offsets are message ids). Each record keeps its
 * position (split and offset), its arrival time as event timestamp (a {@code WatermarkStrategy}
 * with timestamps may replace it), its bytes and headers (partition key, attributes).
 *
 * <pre>{@code
 * SourceBatch batch = SourceBatch.ordered("clicks/shardId-000000000000")
 *     .add("49590338271490256608559692538361571095921575989136588898", arrivalMillis, data)
 *     .build();
 * }</pre>
 */
public final class SourceBatch {
  /**
   * The header naming a record's order group in an unordered batch (an SQS FIFO message group):
   * once a record of a group fails, the group's later records in the batch fail with it, so that
   * the group is applied in order.
   */
  public static final String ORDER_GROUP = "statekit.order-group";

  private final String split;
  private final boolean ordered;
  private final boolean changes;
  private final List<Record<byte[]>> records;

  private SourceBatch(
      String split, boolean ordered, boolean changes, List<Record<byte[]>> records) {
    this.split = split;
    this.ordered = ordered;
    this.changes = changes;
    this.records = records;
  }

  /**
   * A batch of a split whose records come in order and are fenced by their offsets: a Kinesis or
   * DynamoDB Streams shard, offsets being sequence numbers (decimal, of any length).
   */
  public static Builder ordered(String split) {
    return new Builder(split, true, false);
  }

  /**
   * A batch of a split without order, deduplicated by offset: an SQS queue, offsets being message
   * ids.
   */
  public static Builder unordered(String split) {
    return new Builder(split, false, false);
  }

  /**
   * A batch of one DynamoDB stream shard's changes, of a split per table: deduplicated by offset
   * (sequence numbers) as a queue's messages are, since sequence numbers of different shards do not
   * compare. Unlike a queue's, its records come again from the first that failed, and no redrive
   * policy keeps a record that fails on every delivery: so a record whose outputs its key's item
   * cannot keep has them set aside (with {@link BatchPipeline.Builder#refusedOutputsTo}), as on a
   * shard, rather than failing. Give its records one {@link #ORDER_GROUP}, as {@link
   * SourceBatches#dynamoDb} does, so that those after a failed one fail with it.
   */
  public static Builder changes(String split) {
    return new Builder(split, false, true);
  }

  /** The split's name. */
  public String split() {
    return split;
  }

  /** True for a shard (sequence numbers), false for a queue (message ids). */
  public boolean ordered() {
    return ordered;
  }

  /** True for a DynamoDB stream's changes ({@link #changes}). */
  public boolean changes() {
    return changes;
  }

  /** The records in delivery order, each with its position in {@link #split()}. */
  public List<Record<byte[]>> records() {
    return records;
  }

  @Override
  public String toString() {
    return "SourceBatch[" + split + ", " + records.size() + (ordered ? " ordered]" : " unordered]");
  }

  /** Builds a {@link SourceBatch}. */
  public static final class Builder {
    private final String split;
    private final boolean ordered;
    private final boolean changes;
    private final List<Record<byte[]>> records = new ArrayList<>();

    private Builder(String split, boolean ordered, boolean changes) {
      Objects.requireNonNull(split, "split");
      if (split.isEmpty() || split.startsWith("#")) {
        throw new IllegalArgumentException(
            "A split's name is not empty and does not start with '#', got '"
                + split
                + "'; use the stream and shard, e.g. clicks/shardId-000000000000");
      }
      this.split = split;
      this.ordered = ordered;
      this.changes = changes;
    }

    /** Adds a record without headers. */
    public Builder add(String offset, long timestamp, byte[] data) {
      return add(offset, timestamp, data, Map.of());
    }

    /**
     * Adds a record.
     *
     * @param offset its sequence number (ordered) or message id (unordered)
     * @param timestamp its event time in epoch ms (the arrival time, unless the pipeline takes it
     *     from the value)
     * @param data its bytes
     * @param headers its headers (partition key, attributes)
     * @throws IllegalArgumentException if the offset is empty, or in an ordered batch not a decimal
     *     number or below the one before it
     */
    public Builder add(String offset, long timestamp, byte[] data, Map<String, String> headers) {
      Objects.requireNonNull(offset, "offset");
      Objects.requireNonNull(data, "data");
      if (offset.isEmpty()) {
        throw new IllegalArgumentException(
            "Record " + records.size() + " of " + split + " has no offset");
      }
      if (ordered && !offset.chars().allMatch(c -> c >= '0' && c <= '9')) {
        throw new IllegalArgumentException(
            "An ordered split's offsets are sequence numbers (decimal digits), got '"
                + offset
                + "' in "
                + split
                + "; use SourceBatch.unordered for message ids");
      }
      if (ordered && !records.isEmpty()) {
        String before = records.get(records.size() - 1).position().offset();
        if (SourcePosition.compareOffsets(offset, before) < 0) {
          // Read as a repeat of what came before it, the record would be checkpointed past and
          // never applied.
          throw new IllegalArgumentException(
              "An ordered split's records come in their sequence order, but "
                  + offset
                  + " follows "
                  + before
                  + " in "
                  + split
                  + ": add them in the order the shard holds them");
        }
      }
      records.add(Record.of(null, data, timestamp, headers, new SourcePosition(split, offset)));
      return this;
    }

    /** The batch. */
    public SourceBatch build() {
      return new SourceBatch(split, ordered, changes, List.copyOf(records));
    }
  }
}
