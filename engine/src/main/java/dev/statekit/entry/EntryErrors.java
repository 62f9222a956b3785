package dev.statekit.entry;

import dev.statekit.json.BoundedJson;
import java.util.HexFormat;
import java.util.List;

/** The entry point's error messages: what arrived, what is registered, and what to do. */
final class EntryErrors {
  private EntryErrors() {}

  /** {@code shape} arrived but nothing is registered for it; {@code what} says what to register. */
  static NoRouteException noRoute(PayloadShape shape, String what, List<String> routes) {
    return new NoRouteException(
        "This entry point got "
            + shape.describe()
            + " but "
            + what
            + ". It routes: "
            + (routes.isEmpty() ? "nothing" : String.join("; ", routes)));
  }

  /**
   * A batch from {@code source} of {@code shape} has no consumer: which builder call adds one. Only
   * the sources the application declared are routed, so that whoever may invoke the function cannot
   * pass an event of their own making off as one of a queue or stream.
   */
  static NoRouteException noConsumer(PayloadShape shape, String source, List<String> routes) {
    String register =
        switch (shape) {
          case SQS ->
              "if it is yours, declare it with queue(\""
                  + source
                  + "\", consumer) (a function runtime's consumer is runtime.queueConsumer())";
          case KINESIS ->
              "if it is yours, declare it with kinesisStream(\"" + source + "\", consumer)";
          case DYNAMODB_STREAM ->
              "if it is yours, declare it with dynamoDbStream(\"" + source + "\", consumer)";
          default -> throw new IllegalArgumentException(shape + " does not come in batches");
        };
    return noRoute(
        shape,
        "its source " + source + " is not one this entry point declares; " + register,
        routes);
  }

  /** A scheduled event fired by none of the declared rules. */
  static NoRouteException undeclaredRule(List<String> resources, List<String> routes) {
    return noRoute(
        PayloadShape.SCHEDULED,
        "its rule "
            + (resources.isEmpty() ? "(none named)" : String.join(", ", resources))
            + " is not one this entry point declares; if it is yours, declare it with"
            + " scheduleRule(\"its name or ARN\")",
        routes);
  }

  /** A payload past the entry point's size limit. */
  static PayloadTooLargeException tooLarge(int size, long limit) {
    return new PayloadTooLargeException(
        "The payload is "
            + size
            + " bytes, more than this entry point's limit of "
            + limit
            + " (Lambda itself takes at most 6 MB); send smaller batches, or raise maxPayloadBytes");
  }

  static UnrecognizedPayloadException unparsable(java.io.IOException e) {
    return new UnrecognizedPayloadException(
        "The payload looks like JSON but does not parse ("
            + BoundedJson.describe(e)
            + "). "
            + accepted(),
        e);
  }

  static UnrecognizedPayloadException unrecognized(byte[] payload, String why) {
    return new UnrecognizedPayloadException(
        "The payload ("
            + payload.length
            + " bytes, "
            + (payload.length == 0
                ? "empty"
                : "starting "
                    + HexFormat.ofDelimiter(" ").formatHex(payload, 0, Math.min(8, payload.length)))
            + ") is not one StateKit accepts: "
            + why
            + ". "
            + accepted());
  }

  /** Every accepted shape, for error messages. */
  static String accepted() {
    StringBuilder text = new StringBuilder("Send one of: ");
    PayloadShape[] shapes = PayloadShape.values();
    for (int i = 0; i < shapes.length; i++) {
      text.append(i == 0 ? "" : "; ").append(shapes[i].describe());
    }
    return text.append('.').toString();
  }
}
