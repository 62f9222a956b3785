package dev.statekit.application;

import java.util.Map;

/**
 * A run of an application end to end that the local runner's {@code demo} plays, on any backend,
 * with visible progress: what it sends, what comes out, the state of the addresses involved.
 */
public interface Scenario {
  /** One line that says what the scenario shows. */
  String title();

  /**
   * The steps the runner announces before its own (servers, resources, event sources), for the
   * progress count {@code [n/m]}: {@link ScenarioContext#step} is called this many times.
   */
  int steps();

  /**
   * Variables set for the scenario instead of the template's (such as shorter hold times), where
   * the template sets them; in memory, added to the application's settings.
   */
  default Map<String, String> settings() {
    return Map.of();
  }

  /**
   * Plays the scenario.
   *
   * @return a summary line (the runner adds the invocation counts)
   * @throws Exception if a step failed: the runner reports it and exits non-zero
   */
  String run(ScenarioContext context) throws Exception;
}
