package dev.statekit.stream.internal;

import dev.statekit.stream.Record;
import dev.statekit.stream.SinkWriter;
import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.Windows;
import dev.statekit.stream.state.KeyedStateStore;
import dev.statekit.stream.state.ListState;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.ValueState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs one {@link WindowSpec} on one worker. Window contents live in keyed state under the window
 * as namespace; a timer per window fires it when the watermark reaches the window's last
 * millisecond. A record is late when every window it belongs to has fired: it is counted and sent
 * to the late-records sink, if any.
 */
final class WindowOperator extends Operator {
  private final WindowSpec spec;
  private final Windows windows;
  private final boolean sessions;
  private EventTimers timers;
  private final OutputBuffer buffer = new OutputBuffer();
  private KeyedStateStore store;
  private ValueState<Object> accumulator;
  private ListState<Object> contents;
  private ValueState<List<TimeWindow>> sessionList;
  private SinkWriter<Object> late;
  private OperatorContext context;
  private long watermark = Long.MIN_VALUE;

  WindowOperator(WindowSpec spec) {
    this.spec = spec;
    this.windows = spec.windows();
    this.sessions = windows.kind() == Windows.Kind.SESSION;
  }

  @Override
  @SuppressWarnings("unchecked")
  public void open(OperatorContext context) throws Exception {
    this.context = context;
    store = context.openStore(spec.keySerde(), WindowSerdes.WINDOW);
    if (spec.aggregate() != null) {
      accumulator = store.register(StateSpec.value("window-accumulator", spec.stateSerde()));
    } else {
      contents = store.register(StateSpec.list("window-contents", spec.stateSerde()));
    }
    if (sessions) {
      Object raw = store.register(StateSpec.value("sessions", WindowSerdes.SESSIONS));
      sessionList = (ValueState<List<TimeWindow>>) raw;
    }
    if (spec.lateRecords() != null) {
      late = context.openSideOutput(spec.lateRecords());
    }
    watermark = context.restoredWatermark();
    timers = context.openTimers(spec.keySerde(), sessions);
  }

  @Override
  public void prefetch(Object[] keys, int from, int to) {
    Prefetch.keys(store, keys, from, to);
  }

  @Override
  public void emit(Record<?> record) throws Exception {
    emitKeyed(record.key(), record);
  }

  @Override
  public void emitKeyed(Object key, Record<?> record) throws Exception {
    if (!record.hasTimestamp()) {
      throw new IllegalArgumentException(
          "Windows need event time, but "
              + record
              + " has no timestamp: call withWatermarks(...) before keyBy");
    }
    long ts = record.timestamp();
    store.setCurrentKey(key);
    boolean accepted =
        sessions ? addToSession(key, ts, record.value()) : addToFixed(key, ts, record);
    if (!accepted) {
      context.metrics().late++;
      if (late != null) {
        @SuppressWarnings("unchecked")
        Record<Object> r = (Record<Object>) record.withKey(key);
        late.write(r);
      }
    }
  }

  private boolean addToFixed(Object key, long ts, Record<?> record) {
    long size = windows.size();
    boolean accepted = false;
    for (long start = windows.lastStart(ts); start > ts - size; start -= windows.slide()) {
      long end = start + size;
      if (end - 1 <= watermark) {
        break; // this window fired; the older ones did too
      }
      TimeWindow window = new TimeWindow(start, end);
      store.setNamespace(window);
      if (add(record.value())) {
        timers.add(end - 1, key);
      }
      accepted = true;
    }
    return accepted;
  }

  /** Adds to the current namespace's window; true if the window was new. */
  private boolean add(Object value) {
    if (accumulator != null) {
      Object acc = accumulator.value();
      boolean created = acc == null;
      if (created) {
        acc = spec.aggregate().createAccumulator();
      }
      accumulator.update(spec.aggregate().add(value, acc));
      return created;
    }
    boolean created = contents.get().isEmpty();
    contents.add(value);
    return created;
  }

  private boolean addToSession(Object key, long ts, Object value) {
    TimeWindow window = new TimeWindow(ts, ts + windows.size());
    if (window.maxTimestamp() <= watermark) {
      return false;
    }
    List<TimeWindow> open = sessionList.value();
    List<TimeWindow> all = open == null ? new ArrayList<>() : new ArrayList<>(open);
    List<TimeWindow> absorbed = new ArrayList<>();
    TimeWindow merged = window;
    for (TimeWindow session : all) {
      if (session.intersects(window)) {
        absorbed.add(session);
        merged = merged.cover(session);
      }
    }
    if (absorbed.size() == 1 && absorbed.get(0).equals(merged)) {
      store.setNamespace(merged);
      add(value);
      return true;
    }
    Object acc = null;
    List<Object> values = new ArrayList<>();
    for (TimeWindow session : absorbed) {
      store.setNamespace(session);
      if (accumulator != null) {
        Object a = accumulator.value();
        acc = acc == null ? a : spec.aggregate().merge(acc, a);
        accumulator.clear();
      } else {
        values.addAll(contents.get());
        contents.clear();
      }
    }
    store.setNamespace(merged);
    if (accumulator != null) {
      accumulator.update(
          spec.aggregate().add(value, acc == null ? spec.aggregate().createAccumulator() : acc));
    } else {
      values.add(value);
      contents.update(values);
    }
    all.removeAll(absorbed);
    all.add(merged);
    store.setNamespace(KeyedStateStore.NO_NAMESPACE);
    sessionList.update(all);
    timers.add(merged.maxTimestamp(), new EventTimers.SessionTimer(key, merged));
    return true;
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
        if (sessions) {
          EventTimers.SessionTimer t = (EventTimers.SessionTimer) timer;
          fireSession(t.key(), t.window());
        } else {
          store.setCurrentKey(timer);
          fire(timer, new TimeWindow(time + 1 - windows.size(), time + 1));
        }
      }
    }
    next.watermark(newWatermark);
  }

  private void fireSession(Object key, TimeWindow window) throws Exception {
    store.setCurrentKey(key);
    List<TimeWindow> open = sessionList.value();
    if (open == null || !open.contains(window)) {
      return; // merged into a larger session since this timer was set
    }
    List<TimeWindow> rest = new ArrayList<>(open);
    rest.remove(window);
    sessionList.update(rest.isEmpty() ? null : rest);
    fire(key, window);
  }

  private void fire(Object key, TimeWindow window) throws Exception {
    store.setNamespace(window);
    long ts = window.maxTimestamp();
    if (accumulator != null) {
      Object acc = accumulator.value();
      if (acc == null) {
        return;
      }
      Object result = spec.aggregate().result(acc);
      if (spec.result() != null) {
        result = spec.result().apply(key, window, result);
      }
      accumulator.clear();
      next.emit(Record.of(key, result, ts, Map.of(), null));
      return;
    }
    List<Object> values = List.copyOf(contents.get());
    contents.clear();
    if (!values.isEmpty()) {
      spec.process().process(key, window, values, buffer);
      buffer.drainTo(key, ts, next);
    }
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
