package dev.statekit.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.statekit.entry.InvocationError;
import dev.statekit.runtime.FunctionRuntime;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;

/**
 * Direct invokes of the self-hosted runtime: the payload is one JSON envelope {@code {"target":
 * "ns/type/id", "typename": "...", "value": ..., "id": "..."}} or a JSON array of them; the answer
 * is {@code {"status": "applied"}} (or {@code "duplicate"}), or {@code {"results": [...]}} for an
 * array. A single envelope that is malformed or fails is a Lambda error (an {@link
 * InvocationError}: what was wrong with a malformed one, an error id for one that failed, whose
 * cause is logged), so asynchronous invokes are retried. Subclass it with a no-argument constructor
 * that builds the runtime once (see {@code GreeterInvokeHandler}).
 */
public class FunctionInvokeHandler implements RequestStreamHandler {
  private final FunctionRuntime runtime;

  /** Serves {@code runtime}. */
  public FunctionInvokeHandler(FunctionRuntime runtime) {
    this.runtime = Objects.requireNonNull(runtime, "runtime");
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    byte[] answer;
    try {
      answer = runtime.invokeJson(input.readAllBytes());
    } catch (RuntimeException | StackOverflowError e) {
      throw InvocationError.of(e);
    }
    output.write(answer);
  }
}
