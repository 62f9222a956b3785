package dev.statekit.examples.fraud;

import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.stream.Sink;
import dev.statekit.stream.SinkWriter;
import java.util.Objects;

/**
 * The fraud check's sink: each {@link Alert} becomes a message to {@code fraud/card/<card>}, handed
 * to a {@link Sender} with the alert's id as idempotency key (a replayed window sends the same key
 * again, and the runtime applies it once).
 */
public final class AlertsToCards implements Sink<Alert> {
  /** Delivers a message to a function. */
  @FunctionalInterface
  public interface Sender {
    /** Sends {@code message}; a repeat with the same {@code idempotencyKey} is applied once. */
    void send(Message message, String idempotencyKey) throws Exception;
  }

  private final Sender sender;

  /** Sends alerts through {@code sender}. */
  public AlertsToCards(Sender sender) {
    this.sender = Objects.requireNonNull(sender, "sender");
  }

  /** The message to the card's function for {@code alert}. */
  public static Message message(Alert alert) {
    return MessageBuilder.forAddress(Card.TYPE, alert.card())
        .withCustomType(Card.ALERT, alert)
        .build();
  }

  @Override
  public SinkWriter<Alert> open(int worker, int workers) {
    return record -> sender.send(message(record.value()), record.value().id());
  }

  @Override
  public String name() {
    return "fraud/card";
  }
}
