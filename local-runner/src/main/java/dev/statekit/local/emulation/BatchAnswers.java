package dev.statekit.local.emulation;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/** How Lambda reads a function's answer to a batch it handed over with ReportBatchItemFailures. */
final class BatchAnswers {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private BatchAnswers() {}

  /**
   * True if {@code answer} is neither empty nor one JSON document: Lambda takes such an answer (a
   * truncated one, say) for a failure of the whole batch, where an empty or null answer is a
   * complete success.
   */
  static boolean unreadable(byte[] answer) {
    if (answer.length == 0) {
      return false;
    }
    try {
      JSON.readTree(answer);
      return false;
    } catch (IOException e) {
      return true;
    }
  }
}
