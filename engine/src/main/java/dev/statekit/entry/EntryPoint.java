package dev.statekit.entry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statekit.Deadline;
import dev.statekit.event.ScheduledEvent;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.protocol.PayloadKind;
import dev.statekit.protocol.RequestReplyHandler;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The one entry point of a StateKit application: {@link #invoke(byte[], Deadline)} takes any
 * payload Lambda (or the local runner) hands over, recognises its {@linkplain PayloadShape shape}
 * from a few bytes or fields, routes it to what the application registered for it and answers in
 * the shape the caller expects:
 *
 * <table>
 *   <caption>Payloads and answers</caption>
 *   <tr><th>payload</th><th>routed to</th><th>answer</th></tr>
 *   <tr><td>StateFun {@code ToFunction}</td><td>{@link EntryPointBuilder#functions}</td><td>the {@code FromFunction} bytes</td></tr>
 *   <tr><td>Function URL / API Gateway event</td><td>{@link EntryPointBuilder#functions}</td><td>the HTTP response JSON</td></tr>
 *   <tr><td>ingress envelope, or an array of them</td><td>{@link EntryPointBuilder#envelopes}</td><td>the consumer's JSON</td></tr>
 *   <tr><td>SQS event</td><td>{@link EntryPointBuilder#queue} by queue name</td><td>{@code {"batchItemFailures": [...]}}</td></tr>
 *   <tr><td>Kinesis event</td><td>{@link EntryPointBuilder#kinesisStream} by stream name</td><td>{@code {"batchItemFailures": [...]}}</td></tr>
 *   <tr><td>DynamoDB Streams event</td><td>{@link EntryPointBuilder#dynamoDbStream} by table name</td><td>{@code {"batchItemFailures": [...]}}</td></tr>
 *   <tr><td>EventBridge scheduled event</td><td>every {@link EntryPointBuilder#scheduled} task</td><td>{@code {"tasks": {...}}}</td></tr>
 * </table>
 *
 * <p>A payload of no accepted shape is refused with an {@link UnrecognizedPayloadException} naming
 * every shape; one the application registered nothing for, with a {@link NoRouteException} naming
 * what is registered and which builder method registers a route for it. Build one per process (in a
 * Lambda handler's constructor) and share it: it is immutable and thread-safe as long as its
 * consumers are.
 */
public final class EntryPoint {
  private final RouteTable routes;
  private final PayloadRouter router;

  EntryPoint(RouteTable routes) {
    this.routes = routes;
    this.router = new PayloadRouter(routes);
  }

  /** Starts an entry point; register at least one route. */
  public static EntryPointBuilder builder() {
    return new EntryPointBuilder();
  }

  /**
   * Answers one payload with no deadline (outside Lambda, or when the work's length does not
   * matter); see {@link #invoke(byte[], Deadline)}.
   */
  public byte[] invoke(byte[] payload) {
    return invoke(payload, Deadline.none());
  }

  /**
   * Answers one payload by {@code deadline}: long work (the timer sweep, a {@linkplain
   * ScheduledEvent#deadline() scheduled task}) stops in time and answers with what is left for the
   * next invocation. A Lambda handler passes {@code
   * Deadline.after(Duration.ofMillis(context.getRemainingTimeInMillis()))}.
   *
   * @throws UnrecognizedPayloadException if the payload is of no accepted shape
   * @throws NoRouteException if nothing is registered for it
   * @throws IllegalArgumentException if an event lacks a field Lambda always sends
   * @throws RuntimeException what the routed-to code throws (for a batch: Lambda retries it whole)
   */
  public byte[] invoke(byte[] payload, Deadline deadline) {
    Objects.requireNonNull(payload, "payload");
    Objects.requireNonNull(deadline, "deadline");
    return router.route(payload, deadline);
  }

  /** The shape of {@code payload}, or {@code null} if it is none of the accepted ones. */
  public static PayloadShape shapeOf(byte[] payload) {
    PayloadKind kind = PayloadKind.of(payload);
    if (kind == PayloadKind.TO_FUNCTION) {
      return PayloadShape.TO_FUNCTION;
    }
    if (kind != PayloadKind.JSON) {
      return null;
    }
    JsonNode json = PayloadJson.parseOrNull(payload);
    return json == null ? null : PayloadShape.of(json);
  }

  /** The functions served to StateFun runtimes, if any (tools decode stored state with them). */
  public Optional<StatefulFunctions> functions() {
    return Optional.ofNullable(routes.functions).map(RequestReplyHandler::functions);
  }

  /** Whether anything is registered for payloads of {@code shape}. */
  public boolean accepts(PayloadShape shape) {
    return routes.accepts(shape);
  }

  /** What this entry point routes, one line each: for logs and error messages. */
  public List<String> routes() {
    return routes.describe();
  }

  /**
   * Loads and initialises what each payload shape needs, by reading one small sample of each
   * without routing it anywhere (no function runs, nothing is sent), then runs the registered
   * {@linkplain EntryPointBuilder#primer primers}. Call it before a SnapStart snapshot, so the
   * first invocation after a restore finds the classes ready.
   *
   * @throws RuntimeException what a primer threw: it could not build what payloads need
   */
  public void prime() {
    EntryPointPriming.prime(routes);
  }
}
