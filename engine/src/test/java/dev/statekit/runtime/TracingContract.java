package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.BusMessage;
import dev.statekit.bus.QueueIds;
import dev.statekit.egress.EgressRecord;
import dev.statekit.function.Address;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.telemetry.Telemetry;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * A trace id given at ingress follows the request: to a message two hops later, a delayed message
 * (by the sweep and by a wake-up), egress records and a dead letter, and into the log context of
 * each function call; bodies written before trace ids are still read.
 */
abstract class TracingContract extends RuntimeFixture {
  static final TypeName RELAY = TypeName.of("trace", "relay");
  static final TypeName POISON = TypeName.of("trace", "poison");
  static final String TRACE = "1-5759e988-bd862e3fe1be46a994272793";

  /** What {@link Telemetry#traceId()} said in each call, by address and argument. */
  private final Map<String, String> seenTraces = new ConcurrentHashMap<>();

  private StatefulFunctions functions() {
    return StatefulFunctions.builder()
        .withFunction(
            RELAY,
            (context, message) -> {
              String command = message.asUtf8String();
              seenTraces.put(
                  context.self().id() + " " + command, String.valueOf(Telemetry.traceId()));
              if (command.startsWith("hops:")) {
                int left = Integer.parseInt(command.substring(5));
                if (left > 0) {
                  context.send(
                      MessageBuilder.forAddress(RELAY, context.self().id() + "+")
                          .withValue("hops:" + (left - 1))
                          .build());
                } else {
                  context.sendAfter(
                      Duration.ofSeconds(2),
                      MessageBuilder.forAddress(context.self()).withValue("fire").build(),
                      "later");
                  context.send(
                      EgressMessageBuilder.forEgress(TestFunctions.SEEN)
                          .withValue("arrived")
                          .build());
                  context.send(
                      MessageBuilder.forAddress(POISON, context.self().id())
                          .withValue("x")
                          .build());
                }
              } else if (command.equals("fire")) {
                context.send(
                    EgressMessageBuilder.forEgress(TestFunctions.FIRED).withValue("fired").build());
              }
            })
        .withFunction(
            POISON,
            (context, message) -> {
              seenTraces.put(context.self().id() + " poison", String.valueOf(Telemetry.traceId()));
              throw new IllegalStateException("poisoned on purpose");
            })
        .build();
  }

  private byte[] envelope(Address target, String value, String trace) {
    return ("{\"target\":\""
            + target
            + "\",\"typename\":\"io.statefun.types/string\",\"value\":\""
            + value
            + "\""
            + (trace == null ? "" : ",\"trace\":\"" + trace + "\"")
            + "}")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** Drains the queue, letting failed messages come back until their last attempt (2). */
  private void drainWithRetries(FunctionRuntime runtime) {
    drain(runtime);
    for (int i = 0; i < 2; i++) {
      waitForVisibility();
      drain(runtime);
    }
  }

  @Test
  void aTraceIdGivenAtIngressReachesEveryEffectItCauses() {
    FunctionRuntime runtime = runtime(b -> {}, functions());
    Address start = address(RELAY, "t");
    runtime.invokeJson(envelope(start, "hops:2", TRACE));
    drainWithRetries(runtime);

    assertEquals(TRACE, seenTraces.get(start.id() + " hops:2"), "at ingress");
    assertEquals(TRACE, seenTraces.get(start.id() + "+ hops:1"), "one hop later");
    assertEquals(TRACE, seenTraces.get(start.id() + "++ hops:0"), "two hops later");
    assertEquals(TRACE, seenTraces.get(start.id() + "++ poison"), "in the poisoned call");
    EgressRecord arrived = seen.records().get(0);
    assertEquals(TRACE, arrived.traceId().orElse(null), "the egress record");
    assertEquals("arrived", arrived.text().orElseThrow(), "its payload as the function wrote it");

    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    assertEquals(1, letters.size(), "the poisoned message is dead-lettered: " + letters);
    assertEquals(TRACE, letters.get(0).getValue().get("statekit.trace"), "the letter's attribute");
    assertTrue(
        letters.get(0).getKey().contains("\"trace\":\"" + TRACE + "\""),
        "its body, resent once fixed, keeps the trace: " + letters.get(0).getKey());

    elapse(Duration.ofSeconds(3));
    assertEquals(1, runtime.sweepTimers().sent());
    drain(runtime);
    assertEquals(TRACE, seenTraces.get(start.id() + "++ fire"), "the delayed message");
    assertEquals(TRACE, fired.records().get(0).traceId().orElse(null), "its egress record");
  }

  @Test
  void aDelayedMessageWokenOnTimeKeepsItsTrace() {
    FunctionRuntime runtime = runtime(b -> b.wakeUps(wakeUpQueue().bus()), functions());
    Address start = address(RELAY, "w");
    runtime.invokeJson(envelope(start, "hops:0", TRACE));
    drain(runtime);
    elapse(Duration.ofMillis(2600));
    for (int n; (n = LambdaLikeWorker.pollOnce(wakeUpQueue(), runtime)) > 0; ) {
      assertTrue(n > 0);
    }
    drain(runtime);

    assertEquals(TRACE, seenTraces.get(start.id() + " fire"), "delivered by its wake-up");
    assertEquals(TRACE, fired.records().get(0).traceId().orElse(null));
  }

  @Test
  void anEnvelopeWithoutATraceGetsOneThatItsEffectsCarry() {
    FunctionRuntime runtime = runtime(b -> {}, functions());
    Address start = address(RELAY, "none");
    runtime.invokeJson(envelope(start, "hops:1", null));
    drain(runtime);

    String given = seenTraces.get(start.id() + " hops:1");
    assertNotNull(given);
    assertTrue(given.matches("1-[0-9a-f]{8}-[0-9a-f]{24}"), given);
    assertEquals(given, seenTraces.get(start.id() + "+ hops:0"), "carried on");
    assertEquals(given, seen.records().get(0).traceId().orElse(null));
  }

  @Test
  void messagesWrittenBeforeTraceIdsAreStillRead() {
    FunctionRuntime runtime = runtime(b -> {}, functions());
    Address plain = address(RELAY, "old-envelope");
    Address bundled = address(RELAY, "old-bundle");
    // An envelope and a bundle as the runtime wrote them before trace ids.
    String oldEnvelope =
        "{\"target\":\""
            + plain
            + "\",\"typename\":\"io.statefun.types/string\",\"value\":\"hops:0\"}";
    String oldBundle =
        "{\"statekit\":\"bundle\",\"committed\":1,\"from\":{\"type\":\"trace/relay\",\"id\":\"s\"},"
            + "\"incarnation\":\"1f\",\"version\":1,\"part\":0,\"target\":{\"type\":\"trace/relay\","
            + "\"id\":\""
            + bundled.id()
            + "\"},\"messages\":[{\"typename\":\"io.statefun.types/string\",\"value\":\""
            + java.util.Base64.getEncoder()
                .encodeToString(dev.statekit.types.Types.stringType().serialize("hops:0"))
            + "\"}]}";
    queue()
        .bus()
        .send(
            List.of(
                new BusMessage(QueueIds.groupId(plain), "old-1", oldEnvelope),
                new BusMessage(QueueIds.groupId(bundled), "old-2", oldBundle)));
    drain(runtime);

    String envelopeTrace = seenTraces.get(plain.id() + " hops:0");
    String bundleTrace = seenTraces.get(bundled.id() + " hops:0");
    assertNotNull(envelopeTrace, "the old envelope was applied: " + seenTraces);
    assertNotNull(bundleTrace, "the old bundle was applied: " + seenTraces);
    assertTrue(envelopeTrace.startsWith("1-"), envelopeTrace);
    assertEquals(2, seen.records().size());
    for (EgressRecord record : seen.records()) {
      assertTrue(record.traceId().isPresent(), "a trace made where it entered: " + record);
    }
  }
}
