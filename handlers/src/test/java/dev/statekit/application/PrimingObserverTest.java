package dev.statekit.application;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.entry.EntryPoint;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.handlers.Variables;
import dev.statekit.runtime.ObservedInvocation;
import dev.statekit.types.TypeName;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * SnapStart priming runs the priming payloads through an offline copy of the application: it must
 * apply nothing and tell nobody an invocation happened. Before, the offline runtime was built with
 * the real wiring's observer, so the observer (the local runner's console, or a user's audit) was
 * handed the priming invocations as if they had run: a made-up invocation reported as applied.
 */
class PrimingObserverTest {

  @Test
  void primingReportsNoInvocationToTheApplicationsObserver() {
    Application app =
        Application.builder("priming-observer")
            .functions(
                StatefulFunctions.builder()
                    .withFunction(TypeName.of("example", "greeter"), (context, message) -> {})
                    .build())
            .priming(
                "{\"target\":\"example/greeter/priming\",\"typename\":\"io.statefun.types/string\","
                    + "\"value\":\"hi\"}")
            .build();
    Map<String, String> env = OfflineWiring.runtimeVariables();
    env.put("STATEKIT_DYNAMODB_ENDPOINT", "http://127.0.0.1:9");
    env.put("STATEKIT_SQS_ENDPOINT", "http://127.0.0.1:9");
    env.put("STATEKIT_KINESIS_ENDPOINT", "http://127.0.0.1:9");
    List<ObservedInvocation> observed = new CopyOnWriteArrayList<>();
    EntryPoint entry = app.ingressEntryPoint(Variables.of(env), observed::add);

    entry.prime();

    assertEquals(
        List.of(),
        observed.stream().map(i -> i.address() + " " + i.outcome()).toList(),
        "priming is not an invocation: the observer must see none");
  }
}
