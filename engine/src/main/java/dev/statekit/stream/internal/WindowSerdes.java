package dev.statekit.stream.internal;

import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.serde.Serde;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Compact serdes for windows (state namespaces) and lists of session windows. */
public final class WindowSerdes {
  private WindowSerdes() {}

  public static final Serde<Object> WINDOW =
      new Serde<>() {
        @Override
        public byte[] encode(Object value) {
          TimeWindow w = (TimeWindow) value;
          return ByteBuffer.allocate(16).putLong(w.start()).putLong(w.end()).array();
        }

        @Override
        public Object decode(byte[] bytes) {
          ByteBuffer in = ByteBuffer.wrap(bytes);
          return new TimeWindow(in.getLong(), in.getLong());
        }
      };

  static final Serde<Object> SESSIONS =
      new Serde<>() {
        @Override
        public byte[] encode(Object value) {
          List<?> windows = (List<?>) value;
          ByteBuffer out = ByteBuffer.allocate(16 * windows.size());
          for (Object o : windows) {
            TimeWindow w = (TimeWindow) o;
            out.putLong(w.start()).putLong(w.end());
          }
          return out.array();
        }

        @Override
        public Object decode(byte[] bytes) {
          ByteBuffer in = ByteBuffer.wrap(bytes);
          List<TimeWindow> windows = new ArrayList<>(bytes.length / 16);
          while (in.remaining() >= 16) {
            windows.add(new TimeWindow(in.getLong(), in.getLong()));
          }
          return windows;
        }
      };
}
