package dev.statekit.local;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.statekit.entry.PayloadShape;
import dev.statekit.handlers.StateKitHandler;
import dev.statekit.local.template.FunctionDef;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A function of the template running in this JVM: its handler, constructed once as Lambda does,
 * invoked with a payload's bytes. Invocations of one function may run at once, as on Lambda with
 * several execution environments.
 */
final class LocalFunction {
  /** Where invocations run: one thread each, so that the caller can stop waiting at the timeout. */
  private static final ExecutorService RUNS =
      Executors.newCachedThreadPool(
          r -> {
            Thread thread = new Thread(r, "statekit-invocation");
            thread.setDaemon(true);
            return thread;
          });

  /** The most Lambda returns from a synchronous invocation (its 6 MB response quota). */
  static final int MAX_RESPONSE_BYTES = 6_291_556;

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
   * Invokes the handler once, on a thread of its own, with the function's {@code Timeout}: past it,
   * the invocation is answered as Lambda answers one that timed out, and its thread is interrupted
   * (Lambda stops the environment; a handler that ignores the interrupt runs on here, unseen).
   *
   * @throws FunctionError if the handler threw, ran out of time or answered more than Lambda
   *     returns: what Lambda reports as a function error
   */
  byte[] invoke(byte[] payload) {
    invocations.incrementAndGet();
    long timeoutMs = Math.max(1, definition.timeoutSeconds()) * 1000;
    long deadline = System.nanoTime() + timeoutMs * 1_000_000;
    Context context = new LocalLambdaContext(name(), definition.memoryMb(), deadline);
    Future<byte[]> run =
        RUNS.submit(
            () -> {
              ByteArrayOutputStream answer = new ByteArrayOutputStream();
              handler.handleRequest(new ByteArrayInputStream(payload), answer, context);
              return answer.toByteArray();
            });
    byte[] answer;
    try {
      answer = run.get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      // Lambda's runtime reports anything thrown (an OutOfMemoryError too) as a function error;
      // letting an Error through ended the poller's thread, and its queue was never read again.
      throw new FunctionError(name(), e.getCause());
    } catch (TimeoutException e) {
      run.cancel(true);
      throw new FunctionError(name(), new TimedOut(definition.timeoutSeconds()));
    } catch (InterruptedException e) {
      run.cancel(true);
      Thread.currentThread().interrupt();
      throw new FunctionError(name(), e);
    }
    if (answer.length > MAX_RESPONSE_BYTES) {
      // Lambda returns at most this from a synchronous invocation (an event source mapping's too).
      throw new FunctionError(name(), new ResponseSizeTooLarge());
    }
    return answer;
  }

  /** An answer over what Lambda returns, as Lambda names it. */
  static final class ResponseSizeTooLarge extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ResponseSizeTooLarge() {
      super(
          "Response payload size exceeded maximum allowed payload size ("
              + MAX_RESPONSE_BYTES
              + " bytes).");
    }
  }

  /** An invocation past its function's {@code Timeout}, as Lambda names it. */
  static final class TimedOut extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TimedOut(long seconds) {
      super(String.format(java.util.Locale.ROOT, "Task timed out after %d.00 seconds", seconds));
    }
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
