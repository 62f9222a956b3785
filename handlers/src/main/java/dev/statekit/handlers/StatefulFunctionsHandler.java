package dev.statekit.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.statekit.entry.InvocationError;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.http.FunctionHttpServer;
import dev.statekit.http.HttpEventAdapter;
import dev.statekit.http.HttpRouter;
import dev.statekit.protocol.MalformedRequestException;
import dev.statekit.protocol.PayloadKind;
import dev.statekit.protocol.RequestReplyHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A Lambda handler serving stateful functions to a Flink StateFun runtime. It takes either the raw
 * bytes of a {@code ToFunction} (a direct invoke; the answer is the raw {@code FromFunction}, a
 * failure is a Lambda error naming the exception) or a Function URL / API Gateway HTTP event with
 * the {@code ToFunction} base64-encoded in its body (the answer is the HTTP response JSON, with the
 * same statuses as the HTTP endpoint). A failure reaches Lambda as an {@link InvocationError}.
 *
 * <p>Subclass it with a public no-argument constructor that passes the registry, and name the
 * subclass as the Lambda handler. The wiring is built once, in the constructor, so SnapStart
 * snapshots it.
 */
public class StatefulFunctionsHandler implements RequestStreamHandler {
  private final RequestReplyHandler protocol;
  private final HttpEventAdapter httpEvents;

  /** Serves {@code functions}, accepting HTTP bodies up to the HTTP endpoint's default limit. */
  public StatefulFunctionsHandler(StatefulFunctions functions) {
    this(functions, FunctionHttpServer.DEFAULT_MAX_REQUEST_BYTES);
  }

  /** Serves {@code functions}, accepting HTTP bodies up to {@code maxRequestBytes}. */
  public StatefulFunctionsHandler(StatefulFunctions functions, long maxRequestBytes) {
    this.protocol = new RequestReplyHandler(Objects.requireNonNull(functions, "functions"));
    this.httpEvents = new HttpEventAdapter(new HttpRouter(protocol, maxRequestBytes));
  }

  /**
   * Answers one payload.
   *
   * @throws InvocationError if the payload is neither a {@code ToFunction} nor an HTTP event (its
   *     message says so), or a direct invoke failed
   */
  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    byte[] payload = input.readAllBytes();
    byte[] answer;
    try {
      answer = answer(payload);
    } catch (RuntimeException | StackOverflowError e) {
      throw InvocationError.of(e);
    }
    output.write(answer);
  }

  private byte[] answer(byte[] payload) {
    switch (PayloadKind.of(payload)) {
      case TO_FUNCTION:
        return protocol.invoke(payload);
      case JSON:
        return httpEvents.handle(payload);
      default:
        throw new MalformedRequestException(
            "The payload ("
                + payload.length
                + " bytes, starting "
                + HexFormat.ofDelimiter(" ").formatHex(payload, 0, Math.min(8, payload.length))
                + ") is neither the bytes of a StateFun ToFunction (they start with a2 06) nor"
                + " a JSON HTTP event");
    }
  }
}
