package dev.statekit.local;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.statekit.entry.PayloadShape;
import dev.statekit.handlers.StateKitHandler;
import dev.statekit.local.template.FunctionDef;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Objects;

/**
 * A function of the template running in this JVM: its handler, constructed once as Lambda does,
 * invoked with a payload's bytes. Invocations of one function may run at once, as on Lambda with
 * several execution environments.
 */
final class LocalFunction {
  private final FunctionDef definition;
  private final RequestStreamHandler handler;
  private final java.util.concurrent.atomic.AtomicLong invocations =
      new java.util.concurrent.atomic.AtomicLong();

  LocalFunction(FunctionDef definition, RequestStreamHandler handler) {
    this.definition = Objects.requireNonNull(definition, "definition");
    this.handler = Objects.requireNonNull(handler, "handler");
  }

  RequestStreamHandler handler() {
    return handler;
  }

  /**
   * Whether the handler takes events of this template event type: a StateKit entry point says; any
   * other handler is assumed to.
   */
  boolean takes(String eventType) {
    if (!(handler instanceof StateKitHandler stateKit)) {
      return true;
    }
    PayloadShape shape =
        switch (eventType) {
          case "SQS" -> PayloadShape.SQS;
          case "Kinesis" -> PayloadShape.KINESIS;
          case "DynamoDB" -> PayloadShape.DYNAMODB_STREAM;
          case "Schedule" -> PayloadShape.SCHEDULED;
          default -> null;
        };
    return shape == null || stateKit.entryPoint().accepts(shape);
  }

  /** How many times it was invoked. */
  long invocations() {
    return invocations.get();
  }

  FunctionDef definition() {
    return definition;
  }

  String name() {
    return definition.logicalId();
  }

  /**
   * Invokes the handler once.
   *
   * @throws FunctionError if the handler threw: what Lambda reports as a function error
   */
  byte[] invoke(byte[] payload) {
    invocations.incrementAndGet();
    ByteArrayOutputStream answer = new ByteArrayOutputStream();
    try {
      handler.handleRequest(new ByteArrayInputStream(payload), answer, null);
    } catch (IOException | RuntimeException | Error e) {
      // Lambda's runtime reports anything thrown (an OutOfMemoryError too) as a function error;
      // letting an Error through ended the poller's thread, and its queue was never read again.
      throw new FunctionError(name(), e);
    }
    return answer.toByteArray();
  }

  /** The handler threw; Lambda would answer with {@code X-Amz-Function-Error: Unhandled}. */
  static final class FunctionError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    FunctionError(String function, Throwable cause) {
      super(function + " failed: " + cause.getClass().getName() + ": " + cause.getMessage(), cause);
    }

    /** Lambda's error document: {@code {"errorType": ..., "errorMessage": ...}}. */
    String errorJson() {
      Throwable cause = getCause();
      return "{\"errorType\":"
          + quote(cause.getClass().getName())
          + ",\"errorMessage\":"
          + quote(String.valueOf(cause.getMessage()))
          + "}";
    }

    private static String quote(String text) {
      return new com.fasterxml.jackson.databind.node.TextNode(text).toString();
    }
  }
}
