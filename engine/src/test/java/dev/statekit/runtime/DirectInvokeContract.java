package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.bus.InvalidEnvelopeException;
import dev.statekit.function.Address;
import dev.statekit.function.MessageBuilder;
import dev.statekit.runtime.store.AddressState;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Direct invokes: typed and JSON, single and batch, idempotency keys. */
abstract class DirectInvokeContract extends RuntimeFixture {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void appliesABatchAndDeliversItsEffects() {
    FunctionRuntime runtime = runtime();
    Address total = Address.of(TestFunctions.TOTAL, "all");
    long totalBefore = sum(total, TestFunctions.SUM);
    List<DirectInvocation> batch = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      batch.add(count("a", i));
      batch.add(count("b", 10 * i));
    }

    assertApplied(runtime.invoke(batch));
    drain(runtime);

    assertEquals(5, sum(address(TestFunctions.COUNTER, "a"), TestFunctions.COUNT));
    assertEquals(15, sum(address(TestFunctions.COUNTER, "a"), TestFunctions.SUM));
    assertEquals(150, sum(address(TestFunctions.COUNTER, "b"), TestFunctions.SUM));
    assertEquals(10, counted.records().size());
    assertEquals(165, sum(total, TestFunctions.SUM) - totalBefore);
  }

  @Test
  void anAddressDeletedByTtlStartsAfreshAndItsMessagesAreNotTakenForRepeats() {
    FunctionRuntime runtime = runtime();
    Address reborn = address(TestFunctions.COUNTER, "reborn");
    Address total = Address.of(TestFunctions.TOTAL, "all");
    long before = sum(total, TestFunctions.SUM);
    assertApplied(runtime.invoke(List.of(count("reborn", 1), count("reborn", 2))));
    drain(runtime);
    runtime.invoke(count("reborn", 4));
    drain(runtime);

    servers().expire(reborn);
    runtime.invoke(count("reborn", 8));
    drain(runtime);

    assertEquals(1, store().reload(reborn).version(), "versions start again");
    assertEquals(15, sum(total, TestFunctions.SUM) - before, "the new bundles were applied");
  }

  @Test
  void anIdempotencyKeyAppliesARepeatOnce() {
    FunctionRuntime runtime = runtime();
    Address a = address(TestFunctions.COUNTER, "idem");
    DirectInvocation once =
        DirectInvocation.of(MessageBuilder.forAddress(a).withValue(7L).build(), "key-1");

    assertStatus(DirectResult.Status.APPLIED, runtime.invoke(once));
    assertStatus(DirectResult.Status.DUPLICATE, runtime.invoke(once));
    List<DirectResult> batch = runtime.invoke(List.of(once, once));

    assertStatus(DirectResult.Status.DUPLICATE, batch.get(0));
    assertEquals(1, sum(a, TestFunctions.COUNT));
    assertEquals(1, counted.records().size());
  }

  @Test
  void answersJsonEnvelopesOneOrMany() throws Exception {
    FunctionRuntime runtime = runtime();
    String target = address(TestFunctions.COUNTER, "json").toString();
    String one =
        "{\"target\":\""
            + target
            + "\",\"typename\":\"io.statefun.types/long\",\"value\":4,\"id\":\"j1\"}";

    JsonNode single = json(runtime.invokeJson(utf8(one)));
    JsonNode repeat = json(runtime.invokeJson(utf8(one)));
    JsonNode batch =
        json(
            runtime.invokeJson(
                utf8(
                    "["
                        + one.replace("j1", "j2")
                        + ",{\"target\":\"nope/x/1\",\"typename\":\"a/b\",\"value\":1},"
                        + "{\"target\":\""
                        + target
                        + "\",\"typename\":\"io.statefun.types/long\"}]")));

    assertEquals("applied", single.get("status").asText());
    assertEquals("duplicate", repeat.get("status").asText());
    assertEquals("applied", batch.get("results").get(0).get("status").asText());
    assertEquals("rejected", batch.get("results").get(1).get("status").asText());
    assertTrue(
        batch.get("results").get(1).get("error").asText().contains("No registered function"));
    assertTrue(batch.get("results").get(2).get("error").asText().contains("'value'"));
    assertEquals(8, sum(Address.of(TestFunctions.COUNTER, "json-" + run), TestFunctions.SUM));
  }

  @Test
  void refusesAMalformedSingleEnvelopeWithAClearError() {
    FunctionRuntime runtime = runtime();

    InvalidEnvelopeException notJson =
        assertThrows(InvalidEnvelopeException.class, () -> runtime.invokeJson(utf8("hello")));
    InvalidEnvelopeException unknownField =
        assertThrows(
            InvalidEnvelopeException.class,
            () ->
                runtime.invokeJson(
                    utf8(
                        "{\"target\":\"test/counter/x\",\"typename\":\"a/b\",\"value\":1,\"vlaue\":2}")));
    InvalidEnvelopeException badBase64 =
        assertThrows(
            InvalidEnvelopeException.class,
            () ->
                runtime.invokeJson(
                    utf8("{\"target\":\"test/counter/x\",\"typename\":\"a/b\",\"value\":\"%%\"}")));

    assertTrue(notJson.getMessage().contains("not JSON"), notJson.getMessage());
    assertTrue(unknownField.getMessage().contains("'vlaue'"), unknownField.getMessage());
    assertTrue(badBase64.getMessage().contains("base64"), badBase64.getMessage());
  }

  @Test
  void aFailingInvocationStopsItsAddressAndRetriesCleanly() {
    FunctionRuntime runtime = runtime();
    Address flaky = address(TestFunctions.FLAKY, "f");

    List<DirectResult> results =
        runtime.invoke(
            List.of(
                string(flaky, "ok"),
                string(flaky, "fail"),
                string(flaky, "ok"),
                count("other", 1)));

    assertStatus(DirectResult.Status.APPLIED, results.get(0));
    assertStatus(DirectResult.Status.FAILED, results.get(1));
    assertTrue(results.get(1).error().contains("asked to fail"), results.get(1).error());
    assertStatus(DirectResult.Status.FAILED, results.get(2));
    assertStatus(DirectResult.Status.APPLIED, results.get(3));
    assertEquals(1, sum(flaky, TestFunctions.COUNT), "only the first message took effect");
    InvocationFailedException thrown =
        assertThrows(
            InvocationFailedException.class,
            () ->
                runtime.invokeJson(
                    utf8(
                        Ingress.envelope(
                            MessageBuilder.forAddress(flaky).withValue("fail").build()))));
    assertTrue(thrown.retryable());
  }

  @Test
  void concurrentInvocationsOfOneAddressLoseNoUpdate() throws Exception {
    FunctionRuntime runtime = runtime();
    Address hot = address(TestFunctions.COUNTER, "hot");
    List<Thread> threads = new ArrayList<>();
    List<DirectResult> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < 4; t++) {
      int thread = t;
      threads.add(
          new Thread(
              () -> {
                for (int i = 0; i < 10; i++) {
                  DirectInvocation one =
                      DirectInvocation.of(
                          MessageBuilder.forAddress(hot).withValue(1L).build(), thread + "-" + i);
                  // A client retries what failed for now, with the same key.
                  DirectResult result = runtime.invoke(one);
                  for (int retry = 0; !result.succeeded() && retry < 5; retry++) {
                    result = runtime.invoke(one);
                  }
                  if (!result.succeeded()) {
                    failures.add(result);
                  }
                }
              }));
    }
    threads.forEach(Thread::start);
    for (Thread thread : threads) {
      thread.join();
    }

    assertEquals(List.of(), failures);
    assertEquals(40, sum(hot, TestFunctions.COUNT), "every update, each once");
  }

  long sum(Address address, dev.statekit.function.ValueSpec<Long> spec) {
    AddressState state = store().reload(address);
    var value = state.values().get(spec.name());
    return value == null ? 0 : Types.longType().deserialize(value.bytes());
  }

  static DirectInvocation string(Address target, String value) {
    return DirectInvocation.of(MessageBuilder.forAddress(target).withValue(value).build());
  }

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static JsonNode json(byte[] bytes) throws java.io.IOException {
    return JSON.readTree(bytes);
  }
}
