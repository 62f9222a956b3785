package dev.statekit.application;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.StatefulFunctions;
import dev.statekit.handlers.Variables;
import dev.statekit.types.TypeName;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A malformed variable fails the handler's construction or its SnapStart priming, not every batch
 * of the version that shipped with it. A variable only a pipeline's factory reads (as the example's
 * FRAUD_IDLE_SECONDS) is read when the primer builds the pipeline, and the primer's failure was
 * logged at debug and ignored; a batch timeout past a Duration's milliseconds passed construction
 * and overflowed at the first batch.
 */
class MalformedPipelineSettingTest {

  private static Application application() {
    return Application.builder("idle")
        .functions(
            StatefulFunctions.builder()
                .withFunction(TypeName.of("example", "greeter"), (context, message) -> {})
                .build())
        .pipeline(
            "p",
            "P_STREAM",
            wiring -> {
              Settings.seconds(wiring.variables(), "IDLE_SECONDS", Duration.ofSeconds(60));
              return ApplicationTest.passThrough(wiring);
            })
        .build();
  }

  private static Map<String, String> variables() {
    Map<String, String> env = OfflineWiring.runtimeVariables();
    env.put("P_STREAM", "arn:aws:kinesis:us-east-1:000000000000:stream/idle-stream");
    env.put(AwsWiring.SCHEDULE_RULE, "idle-tick");
    return env;
  }

  /** What a SnapStart version goes through before its snapshot: construction, then priming. */
  private static void constructAndPrime(Map<String, String> env) {
    AwsWiring.of(application(), Variables.of(env), OfflineWiring.clients())
        .eventsEntryPoint()
        .prime();
  }

  @Test
  void aMalformedVariableAPipelineReadsFailsPriming() {
    Map<String, String> env = variables();
    env.put("IDLE_SECONDS", "sixty");
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> constructAndPrime(env));
    assertTrue(e.getMessage().contains("IDLE_SECONDS"), e.getMessage());
  }

  @Test
  void aBatchTimeoutNoLambdaCanHaveFailsConstruction() {
    Map<String, String> env = variables();
    env.put(AwsWiring.BATCH_TIMEOUT_SECONDS, Long.toString(Long.MAX_VALUE));
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> constructAndPrime(env));
    assertTrue(
        e.getMessage().contains(AwsWiring.BATCH_TIMEOUT_SECONDS + " is a number of seconds from 1"),
        e.getMessage());
  }

  @Test
  void wellFormedVariablesPrime() {
    Map<String, String> env = variables();
    env.put("IDLE_SECONDS", "60");
    env.put(AwsWiring.BATCH_TIMEOUT_SECONDS, "900");
    constructAndPrime(env);
  }
}
