package dev.statekit.protocol;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.function.Executable;

/**
 * The bound the forged-request memory tests hold the reader to: a request allocates at most four
 * times its size, measured as the bytes the handling thread allocated.
 */
final class ForgedRequestBound {
  /** At most this many times the request's size. */
  static final long ALLOWED_RATIO = 4;

  private ForgedRequestBound() {}

  /** The bytes the current thread allocated while running {@code action}. */
  static long allocatedBy(Executable action) {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long thread = Thread.currentThread().getId();
    long before = threads.getThreadAllocatedBytes(thread);
    try {
      action.execute();
    } catch (Throwable e) {
      throw new AssertionError(e);
    }
    return threads.getThreadAllocatedBytes(thread) - before;
  }

  /** Prints the ratio, and fails if it is past the bound. */
  static void assertWithinBound(String what, byte[] forged, long allocated) {
    System.out.printf(
        "%s: a request of %,d bytes allocated %,d bytes (%.1f times its size)%n",
        what, forged.length, allocated, (double) allocated / forged.length);
    assertTrue(
        allocated <= ALLOWED_RATIO * forged.length,
        String.format(
            "%s: a request of %,d bytes allocated %,d bytes (%.1f times its size), more than %d"
                + " times its size",
            what, forged.length, allocated, (double) allocated / forged.length, ALLOWED_RATIO));
  }
}
