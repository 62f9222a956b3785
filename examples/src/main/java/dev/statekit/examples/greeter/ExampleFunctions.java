package dev.statekit.examples.greeter;

import dev.statekit.function.StatefulFunctions;

/** The example application: greeter, audit and reminder in one registry. */
public final class ExampleFunctions {
  private ExampleFunctions() {}

  /** The registry of the three example functions. */
  public static StatefulFunctions registry() {
    return StatefulFunctions.builder()
        .withFunction(Greeter.TYPE, new Greeter(), Greeter.SEEN)
        .withFunction(Audit.TYPE, new Audit(), Audit.TOTAL)
        .withFunction(Reminder.TYPE, new Reminder())
        .build();
  }
}
