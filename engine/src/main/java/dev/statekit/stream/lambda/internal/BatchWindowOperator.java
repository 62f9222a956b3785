package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.Record;
import dev.statekit.stream.SinkWriter;
import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.internal.Operator;
import dev.statekit.stream.internal.OperatorContext;
import dev.statekit.stream.internal.WindowContents;
import dev.statekit.stream.internal.WindowSerdes;
import dev.statekit.stream.internal.WindowSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link WindowSpec} in a batch run on Lambda, where event time spans invocations: the batch
 * engine sets the watermark records are late against, collects the windows records open (for the
 * timer index), and fires due windows itself, whichever invocation finds them due. Firing leaves
 * the window's state in place (the same result comes out if it is fired again); the engine drops
 * windows once their results are known to be delivered.
 */
public final class BatchWindowOperator extends Operator {
  /**
   * A window a record opened.
   *
   * @param key the window's key
   * @param window the window (for sessions, the merged session)
   */
  public record Opened(Object key, TimeWindow window) {}

  private final WindowSpec spec;
  private final List<Opened> opened = new ArrayList<>();
  private WindowContents contents;
  private SinkWriter<Object> late;
  private long watermark = Long.MIN_VALUE;
  private int lateRecords;

  BatchWindowOperator(WindowSpec spec) {
    this.spec = spec;
  }

  @Override
  public void open(OperatorContext context) throws Exception {
    contents = new WindowContents(spec, context.openStore(spec.keySerde(), WindowSerdes.WINDOW));
    if (spec.lateRecords() != null) {
      late = context.openSideOutput(spec.lateRecords());
    }
  }

  /** Records are late for windows ending at or before {@code lateness}. */
  public void lateness(long lateness) {
    this.watermark = lateness;
  }

  @Override
  public void emit(Record<?> record) throws Exception {
    emitKeyed(record.key(), record);
  }

  @Override
  public void emitKeyed(Object key, Record<?> record) throws Exception {
    if (!contents.add(key, record, watermark, (k, w) -> opened.add(new Opened(k, w)))) {
      lateRecords++;
      if (late != null) {
        @SuppressWarnings("unchecked")
        Record<Object> r = (Record<Object>) record.withKey(key);
        late.write(r);
      }
    }
  }

  /** Reports every window {@code key} has as opened again (their timers may have been lost). */
  public void reopen(Object key) {
    for (TimeWindow window : contents.windowsOf(key)) {
      opened.add(new Opened(key, window));
    }
  }

  /** The windows opened since the last call. */
  public List<Opened> takeOpened() {
    List<Opened> taken = List.copyOf(opened);
    opened.clear();
    return taken;
  }

  /** The windows {@code key} has. */
  public List<TimeWindow> windowsOf(Object key) {
    return contents.windowsOf(key);
  }

  /** Drops {@code key}'s windows ending at or before {@code time} (their results went out). */
  public void dropThrough(Object key, long time) {
    contents.dropThrough(key, time);
  }

  /**
   * Emits {@code key}'s result for {@code window}, if it has that window, keeping its state.
   *
   * @return how many records were emitted
   */
  public int fire(Object key, TimeWindow window) throws Exception {
    return contents.fire(key, window, next, false);
  }

  /** Late records so far. */
  public int lateRecords() {
    return lateRecords;
  }
}
