package dev.statekit.benchmarks;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One measured case: printed as {@code RESULT suite=S case=C key=value ...}, figures as plain
 * numbers, so runs can be compared by a script.
 */
public final class Result {
  private final String suite;
  private final String caseName;
  private final Map<String, String> figures = new LinkedHashMap<>();

  private Result(String suite, String caseName) {
    this.suite = suite;
    this.caseName = caseName;
  }

  /** A result for one case of one suite; add its figures with {@link #with}. */
  public static Result of(String suite, String caseName) {
    return new Result(suite, caseName);
  }

  /** Adds a whole-number figure. */
  public Result with(String key, long value) {
    figures.put(key, Long.toString(value));
    return this;
  }

  /** Adds a figure, printed with up to four decimals. */
  public Result with(String key, double value) {
    figures.put(key, String.format(Locale.ROOT, "%.4f", value).replaceAll("\\.?0+$", ""));
    return this;
  }

  /** Adds a label such as a job or backend name (no spaces). */
  public Result with(String key, String value) {
    if (value.contains(" ")) {
      throw new IllegalArgumentException("RESULT values hold no spaces: '" + value + "'");
    }
    figures.put(key, value);
    return this;
  }

  /**
   * The result a {@link #line()} printed, as another JVM of the suite printed it.
   *
   * @throws IllegalArgumentException if {@code line} is not a {@code RESULT} line
   */
  public static Result parse(String line) {
    String[] parts = line.split(" ");
    if (parts.length < 3
        || !parts[0].equals("RESULT")
        || !parts[1].startsWith("suite=")
        || !parts[2].startsWith("case=")) {
      throw new IllegalArgumentException("Not a RESULT line: '" + line + "'");
    }
    Result result = new Result(parts[1].substring(6), parts[2].substring(5));
    for (int i = 3; i < parts.length; i++) {
      int eq = parts[i].indexOf('=');
      if (eq < 1) {
        throw new IllegalArgumentException("Not a key=value figure: '" + parts[i] + "' in " + line);
      }
      result.figures.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
    }
    return result;
  }

  /** The {@code RESULT ...} line. */
  public String line() {
    StringBuilder line =
        new StringBuilder("RESULT suite=").append(suite).append(" case=").append(caseName);
    figures.forEach((key, value) -> line.append(' ').append(key).append('=').append(value));
    return line.toString();
  }
}
