package dev.statekit.benchmarks.protocol;

import java.util.function.ToIntFunction;

/** Times one side over rounds of fixed length, cycling through the requests. */
final class Rounds {
  private final ToIntFunction<byte[]> call;
  private final byte[][] requests;
  private final int batch;
  private long calls;
  private long sink;
  private long lastInvocations;

  Rounds(ToIntFunction<byte[]> call, byte[][] requests, int batch) {
    this.call = call;
    this.requests = requests;
    this.batch = batch;
  }

  /** Invocations per second over one round of about {@code nanos}. */
  double measure(long nanos) {
    long start = System.nanoTime();
    long deadline = start + nanos;
    long done = 0;
    long now;
    do {
      for (int i = 0; i < 256; i++) {
        sink += call.applyAsInt(requests[(int) (calls++ % requests.length)]);
      }
      done += 256;
      now = System.nanoTime();
    } while (now < deadline);
    lastInvocations = done * batch;
    return lastInvocations * 1e9 / (now - start);
  }

  /** How many invocations the last round ran. */
  long lastInvocations() {
    return lastInvocations;
  }

  /** The answers' total length so far: printed, so the answers are used. */
  long checksum() {
    return sink;
  }
}
