package ${package};

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.application.Scenario;
import dev.statekit.application.ScenarioContext;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/** The local runner's {@code demo}: visits to the function, then page views through the pipeline. */
final class Demo implements Scenario {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public String title() {
    return "visits counted by a stateful function, page views counted by a pipeline";
  }

  @Override
  public int steps() {
    return 2;
  }

  @Override
  public String run(ScenarioContext context) throws Exception {
    context.step("The visitor function: each visit counted in the visitor's state");
    context.send("app/visitor/ada", null, "/home");
    context.send("app/visitor/ada", null, "/pricing");
    context.enqueue("app/visitor/grace", null, "/home");
    context.awaitIdle();
    context.showState("app/visitor/ada");
    context.showState("app/visitor/grace");

    context.step("The page-views pipeline: views per page in windows of a minute");
    // A whole minute an hour ago, so the windows are the same every run.
    long start = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofHours(1)).toEpochMilli();
    List<byte[]> views = new ArrayList<>();
    String[] pages = {"/home", "/pricing", "/home", "/docs", "/home"};
    for (int i = 0; i < pages.length; i++) {
      views.add(JSON.writeValueAsBytes(new PageView("v" + i, pages[i], start + i * 1_000L)));
    }
    // A view two minutes on moves event time past the first window.
    views.add(JSON.writeValueAsBytes(new PageView("late", "/home", start + 120_000L)));
    context.say(context.feed(PageViews.NAME, views));
    context.tickUntil(
        PageViews.NAME, start + 60_000L + PageViews.OUT_OF_ORDER.toMillis(), Duration.ofSeconds(60));
    List<String> counts = context.takeEgress(PageViews.COUNTS);
    counts.forEach(count -> context.say("page count: " + count));
    if (counts.isEmpty()) {
      throw new IllegalStateException("The first window's counts did not reach app/page-counts");
    }
    return counts.size() + " page counts from the pipeline.";
  }
}
