package dev.statekit.benchmarks.timers;

import dev.statekit.benchmarks.Result;
import dev.statekit.benchmarks.Suite;
import dev.statekit.function.Address;
import dev.statekit.function.MessageBuilder;
import dev.statekit.local.emulation.Activity;
import dev.statekit.runtime.DirectInvocation;
import dev.statekit.runtime.DirectResult;
import dev.statekit.testservers.AwsClients;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * How late delayed messages of 1 s, 5 s, 30 s, 2 min and 20 min arrive (delivered to their egress
 * minus due), all set in one run and waiting concurrently, through the local runner's emulated
 * event sources (SQS pollers and the one-minute schedule): on Dynoxide and ElasticMQ with the
 * wake-up queue, in memory with it, and on the servers without it (the sweep alone, as before
 * wake-ups: the peer). The messages of each delay are set at random moments over the first 30 s, so
 * the sweep's phase varies. {@code --max-delay SECONDS} leaves out longer delays (a quick run);
 * {@code --per-delay N} sets N messages per delay (default 20).
 */
public final class TimersSuite implements Suite {
  private static final long[] DELAYS_MILLIS = {1_000, 5_000, 30_000, 120_000, 1_200_000};
  private static final long SPREAD_MILLIS = 30_000;

  private long maxDelayMillis = Long.MAX_VALUE;
  private int perDelay = 20;

  @Override
  public String name() {
    return "timers";
  }

  @Override
  public String description() {
    return "lateness of delayed messages (1 s to 20 min) through the local runner's emulation,"
        + " with wake-ups against the sweep alone; about 21 minutes (--max-delay SECONDS for less)";
  }

  @Override
  public void options(List<String> options) {
    for (int i = 0; i < options.size(); i++) {
      String option = options.get(i);
      if (i + 1 >= options.size()) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      String value = options.get(++i);
      switch (option) {
        case "--max-delay" -> maxDelayMillis = positive(option, value) * 1000;
        case "--per-delay" -> perDelay = (int) positive(option, value);
        default ->
            throw new IllegalArgumentException(
                "Unknown option " + option + " (timers takes --max-delay SECONDS, --per-delay N)");
      }
    }
  }

  private static long positive(String option, String value) {
    try {
      long n = Long.parseLong(value);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalArgumentException(
        option + " takes a whole number above 0, not '" + value + "'");
  }

  @Override
  public List<Result> run(PrintStream log) throws Exception {
    List<Long> delays = new ArrayList<>();
    for (long delay : DELAYS_MILLIS) {
      if (delay <= maxDelayMillis) {
        delays.add(delay);
      }
    }
    if (delays.isEmpty()) {
      throw new IllegalArgumentException("--max-delay leaves no delay; the shortest is 1 s");
    }
    // The emulation's activity (every batch) is noise here: kept, printed only on failure.
    StringWriter activityLog = new StringWriter();
    Activity activity = new Activity(new PrintWriter(activityLog));
    DynamoDbClient dynamoDb = AwsClients.dynamoDb();
    SqsClient sqs = AwsClients.sqs();
    List<TimerDeployment> deployments =
        List.of(
            TimerDeployment.servers("servers", dynamoDb, sqs, true, activity),
            TimerDeployment.inMemory("in-memory", activity),
            TimerDeployment.servers("sweep-only", dynamoDb, sqs, false, activity));
    int total = delays.size() * perDelay;
    log.printf(
        "  %d delayed messages per deployment (%d per delay of %s ms), set over %d s%n",
        total, perDelay, delays, SPREAD_MILLIS / 1000);
    ScheduledExecutorService setter = Executors.newScheduledThreadPool(4);
    Random random = new Random(15);
    List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (TimerDeployment deployment : deployments) {
      for (long delay : delays) {
        for (int i = 0; i < perDelay; i++) {
          Address target = Address.of(TimerFunction.TYPE, "d" + delay + "-" + i);
          DirectInvocation set =
              DirectInvocation.of(
                  MessageBuilder.forAddress(target).withValue("set:" + delay).build());
          setter.schedule(
              () -> {
                DirectResult result = deployment.runtime.invoke(set);
                if (!result.succeeded()) {
                  failures.add(deployment.name + " " + target + ": " + result);
                }
              },
              (long) (random.nextDouble() * SPREAD_MILLIS),
              TimeUnit.MILLISECONDS);
        }
      }
    }
    long longest = delays.get(delays.size() - 1);
    long deadline = System.currentTimeMillis() + SPREAD_MILLIS + longest + 180_000;
    long nextReport = System.currentTimeMillis() + 60_000;
    while (System.currentTimeMillis() < deadline
        && deployments.stream().anyMatch(d -> d.lateness.count() < total)) {
      Thread.sleep(250);
      if (System.currentTimeMillis() >= nextReport) {
        nextReport += 60_000;
        StringBuilder progress = new StringBuilder("  fired so far:");
        deployments.forEach(
            d -> progress.append(' ').append(d.name).append('=').append(d.lateness.count()));
        log.println(progress.append(" of ").append(total).append(" each"));
      }
    }
    setter.shutdownNow();
    deployments.forEach(TimerDeployment::close);
    if (!failures.isEmpty()) {
      throw new IllegalStateException("Setting delayed messages failed: " + failures);
    }
    List<Result> results = new ArrayList<>();
    for (long delay : delays) {
      results.add(result(delay, deployments, log));
    }
    for (TimerDeployment d : deployments) {
      if (d.lateness.count() < total) {
        log.println(activityLog);
        throw new IllegalStateException(
            d.name + " delivered " + d.lateness.count() + " of " + total + " delayed messages");
      }
    }
    return results;
  }

  private Result result(long delay, List<TimerDeployment> deployments, PrintStream log) {
    Result result = Result.of(name(), "delay-" + label(delay)).with("count", perDelay);
    long ours = -1;
    long theirs = -1;
    for (TimerDeployment d : deployments) {
      List<Long> late = d.lateness.of(delay);
      String prefix = d.name.equals("servers") ? "" : d.name.replace('-', '_') + "_";
      long p99 = Lateness.percentile(late, 99);
      result
          .with(prefix + "p50_ms", Lateness.percentile(late, 50))
          .with(prefix + "p99_ms", p99)
          .with(prefix + "max_ms", late.isEmpty() ? -1 : late.get(late.size() - 1));
      if (d.name.equals("servers")) {
        ours = p99;
      } else if (d.name.equals("sweep-only")) {
        theirs = p99;
      }
      log.printf("  %-6s %-10s lateness ms %s%n", label(delay), d.name, late);
    }
    return result
        .with("p99_ratio", ours > 0 ? (double) theirs / ours : 0)
        .with("p99_under_2s", String.valueOf(ours >= 0 && ours < 2000));
  }

  private static String label(long millis) {
    return millis % 60_000 == 0 ? millis / 60_000 + "min" : millis / 1000 + "s";
  }
}
