package dev.statekit.stream.lambda.internal;

import dev.statekit.Deadline;
import dev.statekit.event.BatchConsumer;
import dev.statekit.stream.lambda.BatchResult;
import java.time.Duration;

/**
 * When a batch stops taking records: once only a reserve of the time its invocation had left when
 * the batch started remains ({@link BatchConsumer#reserve}), so that what it took is written,
 * delivered, checkpointed and answered before Lambda cuts the invocation off, which would leave the
 * batch with none of its answers, to be tried whole again and cut off again. The records it did not
 * take are answered as failed, as those a key had no room for are, and come again. A pass always
 * takes its first record, so that tries go on however short the time.
 */
final class BatchDeadline {
  /** No deadline: every record is taken. */
  static final BatchDeadline NONE = new BatchDeadline(Deadline.none(), Duration.ZERO);

  private final Deadline deadline;
  private final Duration reserve;

  private BatchDeadline(Deadline deadline, Duration reserve) {
    this.deadline = deadline;
    this.reserve = reserve;
  }

  /** The deadline of a batch starting now, in an invocation to be answered by {@code deadline}. */
  static BatchDeadline startingNow(Deadline deadline) {
    if (deadline.isUnlimited()) {
      return NONE;
    }
    return new BatchDeadline(deadline, BatchConsumer.reserve(deadline));
  }

  /** Whether the stateless pass (the operators before the keyed one) takes no more records. */
  boolean sourcesStop() {
    return !deadline.hasMoreThan(reserve);
  }

  /**
   * Whether the keyed pass takes no more records. It runs after the stateless pass, which may have
   * taken records until the reserve: so that it does not then stop at its first record, it goes on
   * into half of the reserve, which it takes only when the keyed functions themselves are slow.
   */
  boolean keysStop() {
    return !deadline.hasMoreThan(reserve.dividedBy(2));
  }

  /** Why record {@code offset} of {@code split} (and on a shard those after it) comes again. */
  static String why(String offset, String split, boolean ordered) {
    return "Record "
        + offset
        + " of "
        + split
        + (ordered ? " and those after it come" : " comes")
        + " again in a later invocation: the batch stopped taking records before its invocation's"
        + " deadline, keeping the rest of its time to write, deliver and checkpoint what it took; "
        + BatchResult.NOTHING_FAILED;
  }

  @Override
  public String toString() {
    return deadline.isUnlimited()
        ? "no deadline"
        : deadline + ", reserve " + reserve.toMillis() + " ms";
  }
}
