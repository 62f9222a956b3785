package dev.statekit.stream.serde;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** What the Serdes.json tests share: a thread that wrote nothing before, and readable bytes. */
final class SerdesJsonTesting {
  private SerdesJsonTesting() {}

  /**
   * Runs {@code test} on a new thread, so that what a JSON serde keeps per thread starts empty, and
   * rethrows what it threw.
   */
  static void onFreshThread(Callable<Void> test) throws Exception {
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      thread.submit(test).get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw (Exception) e.getCause();
    } finally {
      thread.shutdownNow();
    }
  }

  /** The bytes as text, control characters (such as Serdes.auto()'s header) escaped. */
  static String printable(byte[] bytes) {
    StringBuilder text = new StringBuilder();
    for (char c : new String(bytes, StandardCharsets.UTF_8).toCharArray()) {
      text.append(c < 0x20 ? String.format("\\x%02x", (int) c) : String.valueOf(c));
    }
    return text.toString();
  }
}
