package dev.statekit.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** RESULT lines read back from a forked measurement JVM, and the fork that prints them. */
class ResultTest {
  @Test
  void aParsedLineIsPrintedAsItCame() {
    Result result =
        Result.of("batch-engine", "count-b100-s1")
            .with("job", "count")
            .with("records", 200_000)
            .with("ratio", 0.8431);
    assertEquals(result.line(), Result.parse(result.line()).line());
  }

  @Test
  void whatIsNotAResultLineIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> Result.parse("round 1: 5 records/s"));
    assertThrows(IllegalArgumentException.class, () -> Result.parse("RESULT suite=a case=b ratio"));
  }

  @Test
  void aForkHandsOverEveryLineAndItsExitStatus() throws Exception {
    List<String> lines = new java.util.ArrayList<>();
    int status = JvmFork.run(List.of("-Xmx64m"), Echo.class, List.of("one", "two"), lines::add);
    assertEquals(3, status);
    assertEquals(List.of("one", "two"), lines);
  }

  /** Prints its arguments, a line each, and exits with status 3. */
  public static final class Echo {
    public static void main(String[] args) {
      for (String arg : args) {
        System.out.println(arg);
      }
      System.exit(3);
    }
  }
}
