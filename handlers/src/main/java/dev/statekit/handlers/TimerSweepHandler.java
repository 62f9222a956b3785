package dev.statekit.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.SweepResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The scheduled timer sweep (an EventBridge schedule, every minute): sends the delayed messages
 * that are due with {@link FunctionRuntime#sweepTimers(dev.statekit.Deadline)}, sweeping again
 * while more are due and the invocation has time left for another sweep. Answers {@code {"sent": n,
 * "failed": m, "more": true|false}}, {@code more} meaning due messages were left for the next run.
 * The scheduled event's content is not used.
 */
public class TimerSweepHandler implements RequestStreamHandler {
  private final FunctionRuntime runtime;

  /** Serves {@code runtime}. */
  public TimerSweepHandler(FunctionRuntime runtime) {
    this.runtime = Objects.requireNonNull(runtime, "runtime");
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    input.readAllBytes();
    SweepResult result = runtime.sweepTimers(Deadlines.of(context));
    output.write(
        ("{\"sent\":"
                + result.sent()
                + ",\"failed\":"
                + result.failed()
                + ",\"more\":"
                + result.more()
                + ",\"outboxes\":"
                + result.outboxes()
                + ",\"outboxesLeft\":"
                + result.outboxesLeft()
                + "}")
            .getBytes(StandardCharsets.UTF_8));
  }
}
