package dev.statekit.local.emulation;

import dev.statekit.aws.events.EventWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** An EventBridge schedule: fires a scheduled event at the function at a fixed rate. */
public final class ScheduleTicker implements Runnable {
  private static final Pattern RATE =
      Pattern.compile("rate\\(\\s*(\\d+)\\s+(minute|minutes|hour|hours|day|days)\\s*\\)");

  private final String name;
  private final String rule;
  private final Duration period;
  private final String region;
  private final Invoker function;
  private final Activity activity;
  private volatile boolean running = true;
  private String lastAnswer;

  /**
   * Fires every {@code period}.
   *
   * @param rule the name of the rule the events come from (the function routes only its own)
   */
  public ScheduleTicker(
      String name,
      String rule,
      Duration period,
      String region,
      Invoker function,
      Activity activity) {
    this.name = name;
    this.rule = rule;
    this.period = period;
    this.region = region;
    this.function = function;
    this.activity = activity;
  }

  /**
   * The period of a {@code rate(...)} expression.
   *
   * @throws IllegalArgumentException for anything else (cron expressions are not emulated)
   */
  public static Duration rate(String expression) {
    Matcher m = RATE.matcher(expression.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "The local runner fires rate(N minutes|hours|days) schedules, not '"
              + expression
              + "'; pass --tick to set a period");
    }
    if (m.group(1).length() > 9 || Long.parseLong(m.group(1)) < 1) {
      throw new IllegalArgumentException(
          "A schedule's rate is 1 or more (EventBridge refuses '"
              + expression
              + "'); pass --tick to fire faster locally");
    }
    long n = Long.parseLong(m.group(1));
    if ((n == 1) == m.group(2).endsWith("s")) {
      throw new IllegalArgumentException(
          "EventBridge takes a singular unit for a rate of 1 and a plural one above it (rate(1"
              + " minute), rate(5 minutes)), and refuses '"
              + expression
              + "'");
    }
    return switch (m.group(2).replaceAll("s$", "")) {
      case "minute" -> Duration.ofMinutes(n);
      case "hour" -> Duration.ofHours(n);
      default -> Duration.ofDays(n);
    };
  }

  /** The name of the rule its events come from. */
  public String rule() {
    return rule;
  }

  /** Stops before the next tick. */
  public void stop() {
    running = false;
  }

  /** Fires once now; the answer, or the error's message. */
  public String fire() {
    try {
      return new String(
          function.invoke(EventWriter.scheduled(Instant.now(), rule, region)),
          java.nio.charset.StandardCharsets.UTF_8);
    } catch (RuntimeException e) {
      return "function error: " + e.getMessage();
    }
  }

  @Override
  public void run() {
    long next = System.currentTimeMillis() + period.toMillis();
    while (running) {
      long wait = next - System.currentTimeMillis();
      if (wait > 0) {
        try {
          Thread.sleep(Math.min(wait, 500));
        } catch (InterruptedException e) {
          return;
        }
        continue;
      }
      next += period.toMillis();
      String answer = fire();
      // A tick that changed nothing says nothing new: log only answers that differ.
      if (!answer.equals(lastAnswer)) {
        activity.log(name, "tick -> " + answer);
        lastAnswer = answer;
      }
    }
  }
}
