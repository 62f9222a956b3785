package dev.statekit.application;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.handlers.Variables;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The ingress function's SnapStart priming builds none of the application's pipelines: it runs
 * none, and template.yaml gives it none of their variables (docs/reference.md lists them for
 * AppFunction). Once a primer's failure failed prime(), a factory requiring a variable of its own
 * made every ingress version fail to publish; the function that runs the pipeline primes them.
 */
class IngressPrimingTest {

  private static Application application() {
    return Application.builder("ingress-priming")
        .functions(
            StatefulFunctions.builder()
                .withFunction(TypeName.of("example", "greeter"), (context, message) -> {})
                .build())
        .pipeline(
            "p",
            "P_STREAM",
            wiring -> {
              // The pipeline's own setting, which only the function running it is given.
              wiring.variables().required("ALERTS_TOPIC", "where the pipeline's alerts go");
              Pipeline pipeline =
                  Pipeline.from(BatchSource.records())
                      .map("text", (byte[] bytes) -> new String(bytes, StandardCharsets.UTF_8))
                      .to(
                          EgressOutput.to(
                              new CollectingEgressSink(),
                              TypeName.of("test", "out"),
                              Types.stringType()));
              return BatchPipeline.builder(wiring.name(), pipeline)
                  .store(wiring.store())
                  .batchTimeout(wiring.batchTimeout())
                  .clock(wiring.clock())
                  .build();
            })
        .build();
  }

  @Test
  void theAppFunctionWithItsPipelineVariablesPrimes() {
    Map<String, String> env = OfflineWiring.runtimeVariables();
    env.put("P_STREAM", "arn:aws:kinesis:us-east-1:000000000000:stream/s");
    env.put("ALERTS_TOPIC", "alerts");
    env.put(AwsWiring.SCHEDULE_RULE, "tick");
    assertDoesNotThrow(
        () ->
            AwsWiring.of(application(), Variables.of(env), OfflineWiring.clients())
                .eventsEntryPoint()
                .prime());
  }

  @Test
  void theIngressFunctionPrimesWithoutThePipelinesVariables() {
    // Construction succeeds: the ingress entry point needs no pipeline variable...
    var entry =
        AwsWiring.of(
                application(),
                Variables.of(OfflineWiring.runtimeVariables()),
                OfflineWiring.clients())
            .ingressEntryPoint();
    // ...and so must its SnapStart priming, which runs before every published version.
    assertDoesNotThrow(entry::prime, "the ingress function's snapshot");
  }
}
