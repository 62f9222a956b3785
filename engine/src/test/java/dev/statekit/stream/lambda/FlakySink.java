package dev.statekit.stream.lambda;

import dev.statekit.StateKitException.Reason;
import dev.statekit.egress.EgressException;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import java.util.List;

/** A sink that refuses every delivery while it is down, as a queue or table out of reach would. */
final class FlakySink implements EgressSink {
  private final EgressSink sink;
  private volatile int failures;
  private volatile boolean down;

  FlakySink(EgressSink sink) {
    this.sink = sink;
  }

  /** Refuses the next {@code count} deliveries. */
  void failNext(int count) {
    failures = count;
  }

  /** Refuses every delivery until {@link #up}. */
  void down() {
    down = true;
  }

  void up() {
    down = false;
  }

  @Override
  public void deliver(List<EgressRecord> records) {
    if (down || failures > 0) {
      failures = Math.max(0, failures - 1);
      throw new EgressException(Reason.UNAVAILABLE, "the sink is out of reach", null);
    }
    sink.deliver(records);
  }
}
