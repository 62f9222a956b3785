package dev.statekit.stream.internal;

import dev.statekit.stream.OperatorDescription;
import dev.statekit.stream.Record;
import dev.statekit.stream.WatermarkStrategy;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * withWatermarks: assigns timestamps and emits bounded-out-of-orderness watermarks after each poll
 * of the source (so restored runs emit them at the same records), and moves the watermark on with
 * the wall clock while the input is idle.
 */
public record WatermarkSpec(WatermarkStrategy<Object> strategy) implements OperatorSpec {
  @Override
  public OperatorDescription describe() {
    Map<String, String> config = new HashMap<>();
    config.put("out_of_orderness_ms", Long.toString(strategy.outOfOrdernessMs()));
    if (strategy.idleTimeoutMs() > 0) {
      config.put("idle_timeout_ms", Long.toString(strategy.idleTimeoutMs()));
    }
    return new OperatorDescription("watermarks", "watermarks", config);
  }

  @Override
  public Generator create() {
    return new Generator(strategy);
  }

  /** The running operator; the source task calls its poll and idle hooks. */
  public static final class Generator extends Operator {
    private final long bound;
    private final ToLongFunction<Object> timestamps;
    private final long idleTimeout;
    private long maxTimestamp = Long.MIN_VALUE;
    private long recentMax = Long.MIN_VALUE;
    private long emitted = Long.MIN_VALUE;
    private boolean saidIdle;

    Generator(WatermarkStrategy<Object> strategy) {
      this.bound = strategy.outOfOrdernessMs();
      this.timestamps = strategy.timestamps();
      this.idleTimeout = strategy.idleTimeoutMs();
    }

    @Override
    public void emit(Record<?> record) throws Exception {
      Record<?> timed = record;
      if (timestamps != null) {
        timed = record.withTimestamp(timestamps.applyAsLong(record.value()));
      } else if (!record.hasTimestamp()) {
        throw new IllegalArgumentException(
            "Record "
                + record
                + " has no event timestamp: give the source timestamps or use"
                + " WatermarkStrategy.withTimestamps(extractor)");
      }
      long timestamp = timed.timestamp();
      if (!EventTime.accepts(timestamp)) {
        throw new IllegalArgumentException(
            "Record "
                + record
                + " has event time "
                + timestamp
                + ", outside what windows and watermarks work with (within 2^62 ms of the epoch,"
                + " about 146 million years): fix the timestamp extractor, or drop or dead-letter"
                + " such records in a process(...) step before withWatermarks");
      }
      if (timestamp > maxTimestamp) {
        maxTimestamp = timestamp;
      }
      if (timestamp > recentMax) {
        recentMax = timestamp;
      }
      next.emit(timed);
    }

    /**
     * The highest timestamp of the records since the last call ({@link Long#MIN_VALUE} if none),
     * and starts again: what one source record moved event time to, whatever records before it did.
     */
    public long takeRecentMax() {
      long max = recentMax;
      recentMax = Long.MIN_VALUE;
      return max;
    }

    /** After each poll: emits the watermark if it moved. */
    public void afterPoll() throws Exception {
      if (maxTimestamp != Long.MIN_VALUE) {
        advanceTo(maxTimestamp - bound - 1);
      }
    }

    /**
     * While no record came for {@code idleMs}: event time follows the wall clock; a reader that has
     * handed out no record yet has none to follow, and says it is idle instead ({@link
     * Output#idle}), once.
     */
    public void idle(long idleMs) throws Exception {
      if (idleTimeout <= 0 || idleMs < idleTimeout) {
        return;
      }
      if (maxTimestamp != Long.MIN_VALUE) {
        advanceTo(maxTimestamp - bound - 1 + idleMs);
      } else if (!saidIdle) {
        saidIdle = true;
        next.idle();
      }
    }

    /** At the end of input: every window fires. */
    public void endOfInput() throws Exception {
      advanceTo(Long.MAX_VALUE);
    }

    private void advanceTo(long watermark) throws Exception {
      if (watermark > emitted) {
        emitted = watermark;
        next.watermark(watermark);
      }
    }

    /** The highest timestamp seen, {@link Long#MIN_VALUE} before the first record. */
    public long maxTimestamp() {
      return maxTimestamp;
    }

    public long currentWatermark() {
      return emitted;
    }

    /**
     * Whether this reader said it is idle ({@link #idle}) and has handed out no record since: the
     * channels it reaches leave it out, and so does a checkpoint's least watermark.
     */
    public boolean isIdle() {
      return saidIdle && maxTimestamp == Long.MIN_VALUE;
    }

    public byte[] snapshot() {
      return ByteBuffer.allocate(17)
          .putLong(maxTimestamp)
          .putLong(emitted)
          .put((byte) (isIdle() ? 1 : 0))
          .array();
    }

    /**
     * Sends the restored watermark on: downstream workers start from the checkpoint's least
     * watermark, and a reader whose input had ended (at the highest watermark) emits no other. A
     * reader that was idle says so again at once, as the checkpoint's watermark left it out.
     */
    public void resend() throws Exception {
      if (emitted != Long.MIN_VALUE) {
        next.watermark(emitted);
      }
      if (isIdle()) {
        next.idle();
      }
    }

    /** Continues from a watermark alone (a checkpoint taken with another reader layout). */
    public void resumeAt(long watermark) {
      emitted = watermark;
      if (watermark != Long.MIN_VALUE && watermark != Long.MAX_VALUE) {
        maxTimestamp = watermark + bound + 1;
      }
    }

    public void restore(byte[] data) {
      ByteBuffer in = ByteBuffer.wrap(data);
      maxTimestamp = in.getLong();
      emitted = in.getLong();
      saidIdle = in.hasRemaining() && in.get() == 1; // checkpoints before idleness had 16 bytes
    }
  }
}
