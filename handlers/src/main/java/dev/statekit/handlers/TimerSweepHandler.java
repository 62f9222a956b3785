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
 * that are due, sweeping again while more are due and at least 10 seconds of the invocation remain.
 * Answers {@code {"sent": n, "failed": m}}. The scheduled event's content is not used.
 */
public class TimerSweepHandler implements RequestStreamHandler {
  private static final long MARGIN_MILLIS = 10_000;

  private final FunctionRuntime runtime;

  /** Serves {@code runtime}. */
  public TimerSweepHandler(FunctionRuntime runtime) {
    this.runtime = Objects.requireNonNull(runtime, "runtime");
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    input.readAllBytes();
    int sent = 0;
    int failed = 0;
    SweepResult result;
    do {
      result = runtime.sweepTimers();
      sent += result.sent();
      failed += result.failed();
    } while (result.more()
        && result.sent() > 0
        && (context == null || context.getRemainingTimeInMillis() > MARGIN_MILLIS));
    output.write(
        ("{\"sent\":" + sent + ",\"failed\":" + failed + "}").getBytes(StandardCharsets.UTF_8));
  }
}
