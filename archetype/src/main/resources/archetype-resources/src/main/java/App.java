package ${package};

import dev.statekit.application.Application;
import dev.statekit.application.StateKitApplication;
import dev.statekit.function.StatefulFunctions;

/**
 * The application, declared once: its functions, its pipeline and the stream it reads, where its
 * egress goes, and the local runner's demo. {@code template.yaml} names this class with {@code
 * STATEKIT_APPLICATION}; the Lambda handler ({@code dev.statekit.handlers.ApplicationHandler}) and
 * the local runner both wire it from there.
 */
public final class App implements StateKitApplication {
  /** The variable holding the URL of the queue the page counts go to. */
  public static final String PAGE_COUNTS_QUEUE_URL = "PAGE_COUNTS_QUEUE_URL";

  /** The variable holding the URL of the queue the visitors' greetings go to. */
  public static final String GREETINGS_QUEUE_URL = "GREETINGS_QUEUE_URL";

  /** The variable holding the Kinesis stream of page views (name or ARN). */
  public static final String VIEWS_STREAM = "VIEWS_STREAM";

  /** The declaration. */
  public static final Application APPLICATION =
      Application.builder("${artifactId}")
          .functions(
              StatefulFunctions.builder()
                  .withFunction(Visitor.TYPE, new Visitor(), Visitor.VISITS)
                  .build())
          .egress(Visitor.GREETINGS, GREETINGS_QUEUE_URL, "the queue of greetings")
          .egress(PageViews.COUNTS, PAGE_COUNTS_QUEUE_URL, "the queue of page counts")
          .pipeline(PageViews.NAME, VIEWS_STREAM, PageViews::pipeline)
          .scenario(new Demo())
          .build();

  /** For {@code STATEKIT_APPLICATION}. */
  public App() {}

  @Override
  public Application application() {
    return APPLICATION;
  }
}
