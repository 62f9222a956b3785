package dev.statekit.stream.internal;

import dev.statekit.stream.Record;
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
 * The keyed state of one {@link WindowSpec} and what can be done with it, whoever drives the
 * watermark: window contents live under the window as namespace (an accumulator, or the values),
 * sessions also keep the list of a key's open sessions. Used by the in-process {@link
 * WindowOperator} and by batch runs on Lambda.
 */
public final class WindowContents {
  /** Where the windows a record opens are reported, to set a timer at their last millisecond. */
  public interface NewWindows {
    void opened(Object key, TimeWindow window);
  }

  private final WindowSpec spec;
  private final Windows windows;
  private final boolean sessions;
  private final OutputBuffer buffer = new OutputBuffer();
  private final KeyedStateStore store;
  private final ValueState<Object> accumulator;
  private final ListState<Object> contents;
  private final ValueState<List<TimeWindow>> sessionList;

  @SuppressWarnings("unchecked")
  public WindowContents(WindowSpec spec, KeyedStateStore store) {
    this.spec = spec;
    this.windows = spec.windows();
    this.sessions = windows.kind() == Windows.Kind.SESSION;
    this.store = store;
    if (spec.aggregate() != null) {
      accumulator = store.register(StateSpec.value("window-accumulator", spec.stateSerde()));
      contents = null;
    } else {
      accumulator = null;
      contents = store.register(StateSpec.list("window-contents", spec.stateSerde()));
    }
    Object raw =
        sessions ? store.register(StateSpec.value("sessions", WindowSerdes.SESSIONS)) : null;
    sessionList = (ValueState<List<TimeWindow>>) raw;
  }

  boolean sessions() {
    return sessions;
  }

  KeyedStateStore store() {
    return store;
  }

  /**
   * Adds a record to its windows that end after {@code watermark}; each window it opens is reported
   * to {@code opened}.
   *
   * @return false if the record is late: every window it belongs to ends at or before the watermark
   */
  public boolean add(Object key, Record<?> record, long watermark, NewWindows opened) {
    if (!record.hasTimestamp()) {
      throw new IllegalArgumentException(
          "Windows need event time, but "
              + record
              + " has no timestamp: call withWatermarks(...) before keyBy");
    }
    store.setCurrentKey(key);
    return sessions
        ? addToSession(key, record.timestamp(), record.value(), watermark, opened)
        : addToFixed(key, record.timestamp(), record.value(), watermark, opened);
  }

  private boolean addToFixed(Object key, long ts, Object value, long watermark, NewWindows opened) {
    long size = windows.size();
    boolean accepted = false;
    for (long start = windows.lastStart(ts); start > ts - size; start -= windows.slide()) {
      long end = start + size;
      if (end - 1 <= watermark) {
        break; // this window closed; the older ones did too
      }
      TimeWindow window = new TimeWindow(start, end);
      store.setNamespace(window);
      if (add(value)) {
        opened.opened(key, window);
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

  /**
   * Sessions ending at or before the watermark are closed: a record merges only with open ones (in
   * process there are no others; on Lambda a closed session may wait for its firing). A record is
   * late only if the session it would make ends by the watermark: one behind the watermark that
   * touches an open session joins it, as Flink merges before it checks lateness.
   */
  private boolean addToSession(
      Object key, long ts, Object value, long watermark, NewWindows opened) {
    TimeWindow window = new TimeWindow(ts, ts + windows.size());
    List<TimeWindow> all = openSessions();
    List<TimeWindow> absorbed = new ArrayList<>();
    TimeWindow merged = window;
    for (TimeWindow session : all) {
      if (session.maxTimestamp() > watermark && session.intersects(window)) {
        absorbed.add(session);
        merged = merged.cover(session);
      }
    }
    if (merged.maxTimestamp() <= watermark) {
      return false;
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
    opened.opened(key, merged);
    return true;
  }

  /** The current key's sessions (a copy), oldest first as they were opened. */
  private List<TimeWindow> openSessions() {
    store.setNamespace(KeyedStateStore.NO_NAMESPACE);
    List<TimeWindow> open = sessionList.value();
    return open == null ? new ArrayList<>() : new ArrayList<>(open);
  }

  /** The windows {@code key} has state in (its sessions, for session windows). */
  public List<TimeWindow> windowsOf(Object key) {
    store.setCurrentKey(key);
    if (sessions) {
      return openSessions();
    }
    List<TimeWindow> found = new ArrayList<>();
    for (Object namespace : store.namespaces()) {
      found.add((TimeWindow) namespace);
    }
    return found;
  }

  /**
   * Emits {@code window}'s result for {@code key} to {@code next}, if the key still has that window
   * (a session may have merged into a larger one since its timer was set).
   *
   * @param clear whether to drop the window's state afterwards
   * @return how many records were emitted
   */
  public int fire(Object key, TimeWindow window, Output next, boolean clear) throws Exception {
    store.setCurrentKey(key);
    if (sessions) {
      List<TimeWindow> open = openSessions();
      if (!open.contains(window)) {
        return 0;
      }
      if (clear) {
        open.remove(window);
        sessionList.update(open.isEmpty() ? null : open);
      }
    }
    store.setNamespace(window);
    long ts = window.maxTimestamp();
    if (accumulator != null) {
      Object acc = accumulator.value();
      if (acc == null) {
        return 0;
      }
      Object result = spec.aggregate().result(acc);
      if (spec.result() != null) {
        result = spec.result().apply(key, window, result);
      }
      if (clear) {
        accumulator.clear();
      }
      next.emit(Record.of(key, result, ts, Map.of(), null));
      return 1;
    }
    List<Object> values = List.copyOf(contents.get());
    if (clear) {
      contents.clear();
    }
    if (values.isEmpty()) {
      return 0;
    }
    spec.process().process(key, window, values, buffer);
    int emitted = buffer.size();
    buffer.drainTo(key, ts, next);
    return emitted;
  }

  /** Drops the windows of {@code key} ending at or before {@code time}; true if any were. */
  public boolean dropThrough(Object key, long time) {
    boolean dropped = false;
    for (TimeWindow window : windowsOf(key)) {
      if (window.maxTimestamp() <= time) {
        store.setNamespace(window);
        if (accumulator != null) {
          accumulator.clear();
        } else {
          contents.clear();
        }
        dropped = true;
      }
    }
    if (sessions && dropped) {
      List<TimeWindow> open = openSessions();
      open.removeIf(window -> window.maxTimestamp() <= time);
      sessionList.update(open.isEmpty() ? null : open);
    }
    return dropped;
  }
}
