package dev.statekit.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.handlers.ApplicationHandler;
import dev.statekit.handlers.Variables;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The declaration: validated when built, loaded by class name, wired in memory. */
class ApplicationTest {
  static final TypeName ECHO = TypeName.of("t", "echo");
  static final TypeName SAID = TypeName.of("t", "said");

  static StatefulFunctions echo() {
    return StatefulFunctions.builder()
        .withFunction(
            ECHO,
            (context, message) ->
                context.send(
                    EgressMessageBuilder.forEgress(SAID)
                        .withValue(context.self().id() + ": " + message.asUtf8String())
                        .build()))
        .build();
  }

  static BatchPipeline passThrough(PipelineWiring wiring) {
    var out = EgressOutput.to(wiring.egress(SAID), SAID, Types.stringType());
    Pipeline pipeline =
        Pipeline.from(BatchSource.records())
            .map("text", (byte[] bytes) -> new String(bytes, StandardCharsets.UTF_8))
            .to(out);
    return BatchPipeline.builder(wiring.name(), pipeline)
        .store(wiring.store())
        .batchTimeout(wiring.batchTimeout())
        .clock(wiring.clock())
        .build();
  }

  /** For the loading tests: a declaration by class name. */
  public static final class Declared implements StateKitApplication {
    @Override
    public Application application() {
      return Application.builder("declared").functions(echo()).build();
    }
  }

  /** Not a StateKitApplication. */
  public static final class NotOne {}

  /** No no-argument constructor. */
  public static final class NeedsArgument implements StateKitApplication {
    public NeedsArgument(String unused) {}

    @Override
    public Application application() {
      return null;
    }
  }

  @Test
  void anApplicationWithoutFunctionsIsRefusedWhenBuilt() {
    var e = assertThrows(IllegalStateException.class, () -> Application.builder("a").build());
    assertTrue(
        e.getMessage().contains("declares no functions: call functions(...)"), e.getMessage());
  }

  @Test
  void namesAndDuplicatesAreRefusedWithWhatIsWrong() {
    var name = assertThrows(IllegalArgumentException.class, () -> Application.builder("a b"));
    assertTrue(name.getMessage().contains("got 'a b'"), name.getMessage());

    Application.Builder builder =
        Application.builder("a").functions(echo()).egress(SAID, "SAID_QUEUE_URL", "the queue");
    var egress =
        assertThrows(
            IllegalArgumentException.class, () -> builder.egress(SAID, "OTHER_URL", "another"));
    assertTrue(egress.getMessage().contains("declared twice"), egress.getMessage());

    builder.pipeline("p", "P_STREAM", ApplicationTest::passThrough);
    var pipeline =
        assertThrows(
            IllegalArgumentException.class,
            () -> builder.pipeline("p", "Q_STREAM", ApplicationTest::passThrough));
    assertTrue(
        pipeline.getMessage().contains("The pipeline p is declared twice"), pipeline.getMessage());

    var variable =
        assertThrows(
            IllegalArgumentException.class,
            () -> builder.pipeline("q", "not a variable", ApplicationTest::passThrough));
    assertTrue(variable.getMessage().contains("environment variable name"), variable.getMessage());
    assertThrows(
        IllegalStateException.class,
        () -> Application.builder("b").functions(echo()).functions(echo()));
  }

  @Test
  void aDeclarationIsLoadedByItsClassName() {
    Application loaded =
        Application.fromVariables(
            Variables.of(Map.of(Application.VARIABLE, Declared.class.getName())));
    assertEquals("declared", loaded.name());
  }

  @Test
  void aClassThatCannotDeclareSaysWhy() {
    ClassLoader loader = getClass().getClassLoader();
    var missing =
        assertThrows(IllegalStateException.class, () -> Application.load("no.such.App", loader));
    assertTrue(
        missing.getMessage().contains("no.such.App, which is not on the class path"),
        missing.getMessage());

    var notOne =
        assertThrows(
            IllegalStateException.class, () -> Application.load(NotOne.class.getName(), loader));
    assertTrue(notOne.getMessage().contains("does not implement"), notOne.getMessage());

    var noConstructor =
        assertThrows(
            IllegalStateException.class,
            () -> Application.load(NeedsArgument.class.getName(), loader));
    assertTrue(
        noConstructor.getMessage().contains("needs a public no-argument constructor"),
        noConstructor.getMessage());

    var unset =
        assertThrows(
            IllegalStateException.class, () -> new ApplicationHandler(Variables.of(Map.of())));
    assertTrue(unset.getMessage().contains("STATEKIT_APPLICATION is not set"), unset.getMessage());
  }

  @Test
  void theAwsWiringNamesTheVariableItLacks() {
    Application app =
        Application.builder("a")
            .functions(echo())
            .egress(SAID, "SAID_QUEUE_URL", "the queue")
            .build();
    Map<String, String> set =
        Map.of(
            "AWS_REGION", "us-east-1",
            "STATEKIT_TABLE", "t",
            "STATEKIT_QUEUE_URL", "http://localhost:1/000000000000/q.fifo",
            "STATEKIT_DEAD_LETTER_QUEUE_URL", "http://localhost:1/000000000000/d.fifo");
    var egress = assertThrows(IllegalStateException.class, () -> app.entryPoint(Variables.of(set)));
    assertTrue(
        egress.getMessage().contains("SAID_QUEUE_URL is not set: it must name the queue"),
        egress.getMessage());

    Map<String, String> more = new java.util.HashMap<>(set);
    more.put("SAID_QUEUE_URL", "http://localhost:1/000000000000/s.fifo");
    var rule = assertThrows(IllegalStateException.class, () -> app.entryPoint(Variables.of(more)));
    assertTrue(rule.getMessage().contains("STATEKIT_SCHEDULE_RULE is not set"), rule.getMessage());
  }

  @Test
  void inMemoryTheFunctionsAndThePipelineSendToTheCollectedEgress() {
    Application app =
        Application.builder("a")
            .functions(echo())
            .egress(SAID, "SAID_QUEUE_URL", "the queue")
            .pipeline("p", "P_STREAM", ApplicationTest::passThrough)
            .build();
    InMemoryApplication memory = app.inMemory(Variables.of(Map.of()), Clock.systemUTC());

    String answer =
        new String(
            memory
                .entryPoint()
                .invoke(
                    "{\"target\":\"t/echo/ada\",\"typename\":\"io.statefun.types/string\",\"value\":\"hi\"}"
                        .getBytes(StandardCharsets.UTF_8)),
            StandardCharsets.UTF_8);
    assertTrue(answer.contains("applied"), answer);
    assertEquals(List.of("ada: hi"), memory.egress().get(SAID).texts());
  }

  @Test
  void inMemorySeveralPipelinesNeedTheirStreamsNamed() {
    Application app =
        Application.builder("a")
            .functions(echo())
            .pipeline("p", "P_STREAM", ApplicationTest::passThrough)
            .pipeline("q", "Q_STREAM", ApplicationTest::passThrough)
            .build();
    var e =
        assertThrows(
            IllegalStateException.class,
            () -> app.inMemory(Variables.of(Map.of()), Clock.systemUTC()));
    assertTrue(
        e.getMessage().contains("set P_STREAM to the stream pipeline p reads"), e.getMessage());

    app.inMemory(Variables.of(Map.of("P_STREAM", "ps", "Q_STREAM", "qs")), Clock.systemUTC());
  }
}
