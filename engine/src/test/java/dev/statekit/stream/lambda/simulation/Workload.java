package dev.statekit.stream.lambda.simulation;

import dev.statekit.egress.EgressSink;
import dev.statekit.stream.Pipeline;
import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * A pipeline the simulation runs, the input it is fed and what a run without faults gives: the
 * outputs' values, each once, computed from the input directly rather than by the engine.
 */
public interface Workload {
  /** Where the records come from, and so how Lambda hands them over. */
  enum Source {
    /** A Kinesis stream: ordered shards, batches retried from the failed record. */
    KINESIS,
    /** An SQS standard queue: any order, at least once. */
    QUEUE,
    /** An SQS FIFO queue: in order per message group. */
    FIFO_QUEUE,
    /** A DynamoDB stream: in order per item. */
    CHANGES
  }

  /**
   * One input record.
   *
   * @param at when it is put on the source, epoch ms
   * @param key its partition key (Kinesis), message group (FIFO) or item key (DynamoDB)
   * @param data its bytes
   */
  record Input(long at, String key, byte[] data) {}

  /** The workload's name, in traces. */
  String name();

  Source source();

  /**
   * The pipeline, its outputs going to {@code sink}; shards idle this long stop holding windows.
   */
  Pipeline pipeline(EgressSink sink, Duration idleTimeout);

  /** The input, put on the source from {@code start} on. */
  List<Input> input(Random random, long start);

  /**
   * True if every record has exactly one output, with id {@code <pipeline>/<split>/<offset>/...}:
   * then a record without one was skipped, which the simulation tells from a refusal.
   */
  default boolean perRecord() {
    return false;
  }

  /** The value of every output a run without faults gives, in any order. */
  List<String> expected(List<Input> input);

  /**
   * Whether the results a run gave beside the reference ({@code missing} from it, {@code extra} to
   * it) are what records replayed after their windows fired explain: records Lambda gave up on
   * without any attempt reaching the table, which the pipeline could not hold windows for. None by
   * default: results must equal the reference.
   *
   * @param late the data of such records
   */
  default boolean explains(List<String> missing, List<String> extra, List<byte[]> late) {
    return false;
  }
}
