package dev.statekit.examples.fraud;

import dev.statekit.StateKitException;
import dev.statekit.egress.EgressException;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.runtime.DirectInvocation;
import dev.statekit.runtime.DirectResult;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.telemetry.Log;
import dev.statekit.telemetry.LogLevel;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The fraud check's sink: each {@link Alert} (a record of the pipeline's {@link #ALERTS} output)
 * becomes a message to {@code fraud/card/<card>}, applied by the runtime as a direct invocation
 * whose idempotency key is the record's id. The pipeline gives a window's result the same id on
 * every delivery, so a replayed batch or a repeated delivery is applied to the card once. Each
 * alert applied is logged ({@code dev.statekit.examples.fraud}: INFO, repeats FINE).
 */
public final class AlertsToCards implements EgressSink {
  /** The name of the pipeline's output of alerts. */
  public static final dev.statekit.types.TypeName ALERTS =
      dev.statekit.types.TypeName.of("fraud", "alerts");

  private static final Log LOG = Log.named(AlertsToCards.class.getPackageName());

  private final Supplier<FunctionRuntime> runtime;

  /** Applies alerts to the card functions through {@code runtime}. */
  public AlertsToCards(FunctionRuntime runtime) {
    Objects.requireNonNull(runtime, "runtime");
    this.runtime = () -> runtime;
  }

  /**
   * Applies alerts through the runtime {@code runtime} gives, asked for with each delivery (pass a
   * {@link dev.statekit.entry.Lazy} to build it with the first alert).
   */
  public AlertsToCards(Supplier<FunctionRuntime> runtime) {
    this.runtime = Objects.requireNonNull(runtime, "runtime");
  }

  /** The message to the card's function for {@code alert}. */
  public static Message message(Alert alert) {
    return MessageBuilder.forAddress(Card.TYPE, alert.card())
        .withCustomType(Card.ALERT, alert)
        .build();
  }

  /**
   * Applies the alerts, cards in parallel.
   *
   * @throws EgressException if some were not applied (the pipeline delivers them again, with the
   *     same ids): for now ({@code UNAVAILABLE}) or for good ({@code INVALID_REQUEST})
   */
  @Override
  public void deliver(List<EgressRecord> records) {
    List<Alert> alerts = new ArrayList<>();
    List<DirectInvocation> invocations = new ArrayList<>();
    for (EgressRecord record : records) {
      Alert alert = Card.ALERT.deserialize(record.value());
      alerts.add(alert);
      invocations.add(DirectInvocation.of(message(alert), record.id()));
    }
    List<DirectResult> results = runtime.get().invoke(invocations);
    List<String> failed = new ArrayList<>();
    boolean rejected = false;
    for (int i = 0; i < results.size(); i++) {
      DirectResult result = results.get(i);
      Alert alert = alerts.get(i);
      if (result.status() == DirectResult.Status.APPLIED) {
        LOG.info(() -> describe(alert));
      } else if (result.succeeded()) {
        LOG.log(LogLevel.DEBUG, () -> describe(alert) + " (applied before: a repeated delivery)");
      } else {
        rejected |= result.status() == DirectResult.Status.REJECTED;
        failed.add(alert.id() + ": " + result.errorMessage().orElse(result.status().name()));
      }
    }
    if (!failed.isEmpty()) {
      throw new EgressException(
          rejected
              ? StateKitException.Reason.INVALID_REQUEST
              : StateKitException.Reason.UNAVAILABLE,
          failed.size()
              + " alert(s) were not applied to fraud/card functions, "
              + failed
              + "; the pipeline delivers them again with the same ids",
          null);
    }
  }

  /** One line for an alert: the card, the window, the rule it broke. */
  public static String describe(Alert alert) {
    return "window result: "
        + alert.card()
        + " ["
        + minute(alert.windowStart())
        + ", "
        + minute(alert.windowEnd())
        + "): "
        + alert.reason()
        + " -> "
        + Card.TYPE.asString()
        + "/"
        + alert.card();
  }

  private static String minute(long epochMillis) {
    return Instant.ofEpochMilli(epochMillis).toString().substring(11, 16);
  }

  @Override
  public String toString() {
    return "AlertsToCards[" + Card.TYPE + "]";
  }
}
