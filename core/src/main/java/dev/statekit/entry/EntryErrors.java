package dev.statekit.entry;

import com.fasterxml.jackson.core.JacksonException;
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

  /** A batch from {@code source} of {@code shape} has no consumer: which builder call adds one. */
  static NoRouteException noConsumer(PayloadShape shape, String source, List<String> routes) {
    String register =
        switch (shape) {
          case SQS ->
              "register queue(\""
                  + source
                  + "\", consumer), runtime(runtime, \""
                  + source
                  + "\") if it is the runtime's ingress queue, or anyQueue(consumer)";
          case KINESIS ->
              "register kinesisStream(\"" + source + "\", consumer) or anyKinesisStream(consumer)";
          case DYNAMODB_STREAM ->
              "register dynamoDbStream(\""
                  + source
                  + "\", consumer) or anyDynamoDbStream(consumer)";
          default -> throw new IllegalArgumentException(shape + " does not come in batches");
        };
    return noRoute(
        shape, "nothing consumes " + source + "; " + register + " on its builder", routes);
  }

  static UnrecognizedPayloadException unparsable(JacksonException e) {
    return new UnrecognizedPayloadException(
        "The payload looks like JSON but does not parse ("
            + e.getOriginalMessage()
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
