package dev.statekit.runtime;

import dev.statekit.egress.EgressException;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/** A sink that refuses while it is down, and collects otherwise. */
final class SwitchedSink implements EgressSink {
  private final AtomicBoolean down;
  private final List<String> texts = new ArrayList<>();

  SwitchedSink(AtomicBoolean down) {
    this.down = down;
  }

  @Override
  public synchronized void deliver(List<EgressRecord> records) {
    if (down.get()) {
      throw new EgressException(
          EgressException.Reason.UNAVAILABLE, "the sink is down for maintenance", null);
    }
    records.forEach(r -> texts.add(r.text().orElse("")));
  }

  synchronized List<String> texts() {
    return List.copyOf(texts);
  }
}
