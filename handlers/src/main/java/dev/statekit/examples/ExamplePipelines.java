package dev.statekit.examples;

import dev.statekit.examples.fraud.AlertsToCards;
import dev.statekit.examples.fraud.FraudCheck;
import dev.statekit.examples.fraud.FraudRules;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.Source;
import java.util.List;

/** The example pipelines by name, for tools that run a pipeline over a source of their choice. */
public final class ExamplePipelines {
  private ExamplePipelines() {}

  /** The names of the example pipelines. */
  public static List<String> names() {
    return List.of(FraudCheck.NAME);
  }

  /**
   * The pipeline {@code name} reading {@code records} (the bytes of one record each, as producers
   * put them on the stream), sending what it finds to functions through {@code functions}.
   *
   * @throws IllegalArgumentException if there is no pipeline of that name
   */
  public static Pipeline pipeline(
      String name, Source<byte[]> records, AlertsToCards.Sender functions) {
    if (name.equals(FraudCheck.NAME)) {
      return FraudCheck.pipeline(records, new AlertsToCards(functions), FraudRules.DEFAULT, 2);
    }
    throw new IllegalArgumentException(
        "There is no pipeline '" + name + "'; the examples have " + names());
  }
}
