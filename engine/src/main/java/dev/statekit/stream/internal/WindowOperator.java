package dev.statekit.stream.internal;

import dev.statekit.stream.Record;
import dev.statekit.stream.SinkWriter;
import dev.statekit.stream.TimeWindow;
import java.util.ArrayList;
import java.util.Map;

/**
 * Runs one {@link WindowSpec} on one worker. Window contents live in keyed state under the window
 * as namespace ({@link WindowContents}); a timer per window fires it when the watermark reaches the
 * window's last millisecond. A record is late when every window it belongs to has fired: it is
 * counted and sent to the late-records sink, if any.
 */
final class WindowOperator extends Operator {
  private final WindowSpec spec;
  private EventTimers timers;
  private WindowContents contents;
  private WindowContents.NewWindows newWindows;
  private SinkWriter<Object> late;
  private OperatorContext context;
  private long watermark = Long.MIN_VALUE;

  WindowOperator(WindowSpec spec) {
    this.spec = spec;
  }

  @Override
  public void open(OperatorContext context) throws Exception {
    this.context = context;
    contents = new WindowContents(spec, context.openStore(spec.keySerde(), WindowSerdes.WINDOW));
    if (spec.lateRecords() != null) {
      late = context.openSideOutput(spec.lateRecords());
    }
    watermark = context.restoredWatermark();
    timers = context.openTimers(spec.keySerde(), contents.sessions());
    newWindows =
        contents.sessions()
            ? (key, window) ->
                timers.add(window.maxTimestamp(), new EventTimers.SessionTimer(key, window))
            : (key, window) -> timers.add(window.maxTimestamp(), key);
  }

  @Override
  public void prefetch(Object[] keys, int from, int to) {
    Prefetch.keys(contents.store(), keys, from, to);
  }

  @Override
  public void emit(Record<?> record) throws Exception {
    emitKeyed(record.key(), record);
  }

  @Override
  public void emitKeyed(Object key, Record<?> record) throws Exception {
    if (!contents.add(key, record, watermark, newWindows)) {
      context.metrics().late++;
      if (late != null) {
        @SuppressWarnings("unchecked")
        Record<Object> r = (Record<Object>) record.withKey(key);
        late.write(r);
      }
    }
  }

  @Override
  public void watermark(long newWatermark) throws Exception {
    if (newWatermark <= watermark) {
      return;
    }
    watermark = newWatermark;
    Map.Entry<Long, ArrayList<Object>> due;
    while ((due = timers.pollDue(newWatermark)) != null) {
      long time = due.getKey();
      for (Object timer : due.getValue()) {
        if (timer instanceof EventTimers.SessionTimer session) {
          contents.fire(session.key(), session.window(), next, true);
        } else {
          long size = spec.windows().size();
          contents.fire(timer, new TimeWindow(time + 1 - size, time + 1), next, true);
        }
      }
    }
    next.watermark(newWatermark);
  }

  @Override
  public void barrier(long checkpointId) throws Exception {
    timers.flush(checkpointId);
    next.barrier(checkpointId);
  }

  @Override
  public void checkpointComplete(long checkpointId) {
    timers.checkpointComplete(checkpointId);
  }
}
