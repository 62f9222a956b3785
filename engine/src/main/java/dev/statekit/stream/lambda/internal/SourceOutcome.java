package dev.statekit.stream.lambda.internal;

import dev.statekit.egress.EgressRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * What the stages before the keyed operator made of one source record: its keyed records, its
 * outputs (dead letters, or all results of a pipeline without state), or its failure.
 */
final class SourceOutcome {
  final int index;
  final String offset;
  final List<KeyedInput> keyed = new ArrayList<>();
  final List<Routed> outputs = new ArrayList<>();
  String failure;

  /**
   * Not run: the batch stopped taking records at its deadline ({@link BatchDeadline}). It goes back
   * as a failed record does ({@link #failure} says why), though nothing failed.
   */
  boolean untaken;

  /** The highest event timestamp seen up to and with this record. */
  long maxTimestamp = Long.MIN_VALUE;

  /** An output and the index of the pipeline output it goes to. */
  record Routed(int route, EgressRecord record) {}

  SourceOutcome(int index, String offset) {
    this.index = index;
    this.offset = offset;
  }

  boolean failed() {
    return failure != null;
  }
}
