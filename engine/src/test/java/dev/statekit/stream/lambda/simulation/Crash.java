package dev.statekit.stream.lambda.simulation;

/** What a simulated fault throws where the invocation dies: nothing after it runs. */
public final class Crash extends RuntimeException {
  private static final long serialVersionUID = 1L;

  Crash(String where) {
    super("crash " + where, null, false, false);
  }
}
