package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.bus.BusMessage;
import dev.statekit.bus.InvalidEnvelopeException;
import dev.statekit.function.Address;
import dev.statekit.function.MessageBuilder;
import dev.statekit.runtime.internal.FaultHook;
import dev.statekit.runtime.store.CommitConflictException;
import dev.statekit.runtime.store.FunctionStore;
import dev.statekit.types.Types;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Request-reply calls: the reply, the same reply for a retry, failures, races, bad input. */
abstract class CallContract extends RuntimeFixture {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aCallAnswersTheReplyItsApplicationCommitted() {
    FunctionRuntime runtime = runtime();
    Address account = address(TestFunctions.ACCOUNT, "reply");

    CallResult first = runtime.call(deposit(account, 5, "k1"));
    CallResult second = runtime.call(deposit(account, 7, "k2"));

    assertEquals(CallResult.Status.APPLIED, first.status(), first::toString);
    assertFalse(first.repeat());
    assertEquals(5L, balanceOf(first));
    assertEquals(12L, balanceOf(second));
    assertEquals(12, balance(account));
    assertEquals(2, counted.records().size(), "effects as usual; the reply goes to no sink");
  }

  @Test
  void aRetriedCallGetsTheSameReplyAndAppliesNothingAgain() {
    FunctionRuntime runtime = runtime();
    Address account = address(TestFunctions.ACCOUNT, "retry");
    CallResult first = runtime.call(deposit(account, 5, "once"));
    runtime.call(deposit(account, 100, "later"));

    CallResult again = runtime.call(deposit(account, 5, "once"));
    List<CallResult> twiceInOneBatch =
        runtime.call(
            List.of(deposit(account, 1, "pair"), deposit(account, 1, "pair")),
            Duration.ofSeconds(10));

    assertEquals(CallResult.Status.APPLIED, again.status());
    assertTrue(again.repeat());
    assertEquals(5L, balanceOf(again), "the reply of its one application, not today's balance");
    assertEquals(first.replyType(), again.replyType());
    assertEquals(106L, balanceOf(twiceInOneBatch.get(0)));
    assertTrue(twiceInOneBatch.get(1).repeat());
    assertEquals(106L, balanceOf(twiceInOneBatch.get(1)));
    assertEquals(106, balance(account));
  }

  @Test
  void aCallWhoseProcessDiedAfterItsCommitIsAnsweredWithTheCommittedReply() {
    Address account = address(TestFunctions.ACCOUNT, "crash");
    FunctionRuntime crashing =
        runtime(
            b ->
                b.faultHook(
                    (step, address) -> {
                      if (step == FaultHook.Step.COMMITTED) {
                        throw new QueueBatchContract.SimulatedCrash();
                      }
                    }));
    FunctionRuntime healthy = runtime();
    healthy.call(deposit(account, 10, "before"));

    assertThrows(
        QueueBatchContract.SimulatedCrash.class,
        () -> crashing.call(deposit(account, 3, "lost-answer")));
    CallResult retried = healthy.call(deposit(account, 3, "lost-answer"));

    assertEquals(CallResult.Status.APPLIED, retried.status(), retried::toString);
    assertTrue(retried.repeat());
    assertEquals(13L, balanceOf(retried));
    assertEquals(13, balance(account), "applied once");
  }

  @Test
  void repliesThatLeftTheItemStillAnswerRetries() {
    FunctionRuntime runtime = runtime();
    Address account = address(TestFunctions.ACCOUNT, "spilled");
    List<CallResult> firsts = new ArrayList<>();
    for (int i = 1; i <= 20; i++) {
      // 20 KB replies would not fit; these are small, but 20 of them with 200 other calls pass
      // the item's budget for replies many times over.
      firsts.add(runtime.call(deposit(account, i, "many-" + i)));
    }
    for (int i = 0; i < 200; i++) {
      runtime.call(deposit(account, 1, "filler-" + i));
    }

    for (int i = 1; i <= 20; i++) {
      CallResult again = runtime.call(deposit(account, i, "many-" + i));
      assertTrue(again.repeat(), again::toString);
      assertEquals(balanceOf(firsts.get(i - 1)), balanceOf(again), "key many-" + i);
    }
    assertEquals(210 + 200, balance(account));
    assertTrue(
        store().reload(account).runtimeData().length < 8_000,
        "the item stays small: " + store().reload(account).runtimeData().length + " bytes");
  }

  @Test
  void aFailingFunctionAnswersItsErrorAndAppliesNothing() {
    FunctionRuntime runtime = runtime();
    Address account = address(TestFunctions.ACCOUNT, "failing");
    runtime.call(deposit(account, 5, "in"));

    CallResult failed = runtime.call(deposit(account, -50, "out"));
    CallResult retried = runtime.call(deposit(account, -50, "out"));
    CallResult smaller = runtime.call(deposit(account, -5, "out-2"));

    assertEquals(CallResult.Status.FAILED, failed.status());
    assertTrue(failed.error().contains("insufficient funds: 5 < 50"), failed::toString);
    assertTrue(failed.error().contains("nothing was applied"), failed::toString);
    assertTrue(failed.retryable());
    assertEquals(CallResult.Status.FAILED, retried.status(), "not remembered as applied");
    assertEquals(0L, balanceOf(smaller));
    assertEquals(0, balance(account));
  }

  @Test
  void aCallWithoutAReplySaysSoAndSoDoesItsRetry() {
    FunctionRuntime runtime = runtime();
    Address account = address(TestFunctions.ACCOUNT, "silent");

    CallResult silent = runtime.call(deposit(account, 0, "quiet"));
    CallResult again = runtime.call(deposit(account, 0, "quiet"));

    assertEquals(CallResult.Status.APPLIED, silent.status());
    assertFalse(silent.replied());
    assertTrue(silent.error().contains("sent no reply"), silent::toString);
    assertTrue(again.repeat());
    assertFalse(again.replied());
    assertTrue(again.error().contains("sent no reply"), again::toString);
  }

  @Test
  void aKeyAppliedByAPlainEnvelopeAnswersThatNoReplyWasKept() {
    FunctionRuntime runtime = runtime();
    Address account = address(TestFunctions.ACCOUNT, "plain");
    runtime.invoke(deposit(account, 4, "plain-key"));

    CallResult call = runtime.call(deposit(account, 4, "plain-key"));

    assertTrue(call.repeat());
    assertFalse(call.replied());
    assertTrue(call.error().contains("not a call"), call::toString);
    assertEquals(4, balance(account));
  }

  @Test
  void aReplyTooLargeIsRejectedAndNothingIsApplied() {
    FunctionRuntime runtime = runtime();
    Address account = address(TestFunctions.ACCOUNT, "large");

    CallResult large = runtime.call(deposit(account, 1_000_000, "big"));

    assertEquals(CallResult.Status.REJECTED, large.status());
    assertTrue(large.error().contains("more than a call's reply may have"), large::toString);
    assertFalse(large.retryable());
    assertEquals(0, balance(account));
  }

  @Test
  void aBusyAddressIsAnsweredBusyOnceTheDeadlineHasPassed() {
    Address account = address(TestFunctions.ACCOUNT, "busy");
    FunctionStore real = store();
    AtomicBoolean conflicting = new AtomicBoolean(true);
    FunctionStore contended =
        (FunctionStore)
            Proxy.newProxyInstance(
                FunctionStore.class.getClassLoader(),
                new Class<?>[] {FunctionStore.class},
                forwardingTo(real, conflicting, () -> clock.advance(Duration.ofMillis(20))));
    FunctionRuntime runtime = runtime(b -> b.store(contended).maxConflictRetries(1_000));

    CallResult busy =
        runtime.call(List.of(deposit(account, 1, "b")), Duration.ofMillis(100)).get(0);
    conflicting.set(false);
    CallResult later = runtime.call(deposit(account, 1, "b"));

    assertEquals(CallResult.Status.BUSY, busy.status(), busy::toString);
    assertTrue(busy.error().contains("same idempotency key"), busy::toString);
    assertTrue(busy.retryable());
    assertEquals(CallResult.Status.APPLIED, later.status(), later::toString);
    assertFalse(later.repeat(), "the busy call applied nothing");
    assertEquals(1, balance(account));
  }

  @Test
  void callsRacingQueueMessagesToOneAddressApplyOneAtATimeInOrder() throws Exception {
    FunctionRuntime runtime = runtime();
    Address account = address(TestFunctions.ACCOUNT, "race");
    int callers = 3;
    int callsEach = 15;
    int queued = 30;
    for (int i = 0; i < queued; i++) {
      queue()
          .bus()
          .send(
              List.of(
                  new BusMessage(
                      Ingress.groupId(account),
                      UUID.randomUUID().toString(),
                      Ingress.envelope(MessageBuilder.forAddress(account).withValue(1L).build()))));
    }
    ExecutorService pool = Executors.newFixedThreadPool(callers + 1);
    List<Long> replies = Collections.synchronizedList(new ArrayList<>());
    List<Future<?>> work = new ArrayList<>();
    work.add(pool.submit(() -> drain(runtime)));
    for (int c = 0; c < callers; c++) {
      int caller = c;
      work.add(
          pool.submit(
              () -> {
                long previous = 0;
                for (int i = 0; i < callsEach; i++) {
                  String key = "race-" + caller + "-" + i;
                  CallResult result;
                  do {
                    // Busy or unavailable: the caller retries with the same key, as documented.
                    result = runtime.call(deposit(account, 1, key));
                  } while (result.retryable());
                  assertEquals(CallResult.Status.APPLIED, result.status(), result::toString);
                  long balance = balanceOf(result);
                  assertTrue(balance > previous, "one caller's calls apply in its order");
                  previous = balance;
                  replies.add(balance);
                }
                return null;
              }));
    }
    for (Future<?> f : work) {
      f.get(120, TimeUnit.SECONDS);
    }
    pool.shutdown();
    drain(runtime);
    // A queue batch that lost its conflict retries to the callers comes again after its visibility
    // timeout (on the test's clock), now without contention.
    waitForVisibility();
    drain(runtime);

    assertEquals(callers * callsEach, replies.size());
    assertEquals(
        callers * callsEach,
        replies.stream().distinct().count(),
        "each call saw the state after exactly the applications before it: " + replies);
    assertEquals(callers * callsEach + queued, balance(account));
    assertTrue(
        replies.stream().allMatch(b -> b >= 1 && b <= callers * callsEach + queued), "" + replies);
  }

  @Test
  void answersJsonCallsWithTheReplyAndRefusesMalformedOnes() throws Exception {
    FunctionRuntime runtime = runtime();
    Address account = address(TestFunctions.ACCOUNT, "json");
    String call =
        "{\"target\":\""
            + account
            + "\",\"typename\":\"io.statefun.types/long\",\"value\":9,\"id\":\"j\",\"call\":true,"
            + "\"timeoutMillis\":5000}";

    JsonNode first = json(runtime.invokeJson(utf8(call)));
    JsonNode again = json(runtime.invokeJson(utf8(call)));
    JsonNode failed =
        json(runtime.invokeJson(utf8(call.replace("9", "-99").replace("\"j\"", "\"f\""))));
    JsonNode batch =
        json(
            runtime.invokeJson(
                utf8(
                    "["
                        + call.replace("\"j\"", "\"j2\"")
                        + ",{\"target\":\"nope/x/1\",\"typename\":\"a/b\",\"value\":1,\"call\":true}]")));

    assertEquals("applied", first.get("status").asText(), first::toString);
    assertFalse(first.get("repeat").asBoolean());
    assertEquals("io.statefun.types/long", first.get("reply").get("typename").asText());
    assertEquals(9, first.get("reply").get("value").asLong());
    assertTrue(again.get("repeat").asBoolean());
    assertEquals(9, again.get("reply").get("value").asLong());
    assertEquals("failed", failed.get("status").asText(), failed::toString);
    assertTrue(failed.get("error").asText().contains("insufficient funds"), failed::toString);
    assertTrue(failed.get("retry").asBoolean());
    assertEquals(18, batch.get("results").get(0).get("reply").get("value").asLong());
    assertEquals("rejected", batch.get("results").get(1).get("status").asText());
    assertFalse(batch.get("results").get(1).get("retry").asBoolean());

    InvalidEnvelopeException notBoolean =
        assertThrows(
            InvalidEnvelopeException.class,
            () -> runtime.invokeJson(utf8(call.replace("\"call\":true", "\"call\":\"yes\""))));
    InvalidEnvelopeException timeoutAlone =
        assertThrows(
            InvalidEnvelopeException.class,
            () -> runtime.invokeJson(utf8(call.replace("\"call\":true,", ""))));
    InvalidEnvelopeException longTimeout =
        assertThrows(
            InvalidEnvelopeException.class,
            () -> runtime.invokeJson(utf8(call.replace("5000", "86400000"))));
    InvalidEnvelopeException badKey =
        assertThrows(
            InvalidEnvelopeException.class,
            () -> runtime.invokeJson(utf8(call.replace("\"j\"", "\"\""))));
    assertTrue(notBoolean.getMessage().contains("'call'"), notBoolean::getMessage);
    assertTrue(timeoutAlone.getMessage().contains("for calls"), timeoutAlone::getMessage);
    assertTrue(longTimeout.getMessage().contains("'timeoutMillis'"), longTimeout::getMessage);
    assertTrue(badKey.getMessage().contains("'id'"), badKey::getMessage);
    assertEquals(18, balance(account), "nothing of the refused ones applied");
  }

  @Test
  void answersCallsOverTheFunctionUrlBesideTheStateFunEndpoint() throws Exception {
    FunctionRuntime runtime = runtime();
    Address account = address(TestFunctions.ACCOUNT, "http");
    dev.statekit.entry.EntryPoint entry =
        dev.statekit.entry.EntryPoint.builder()
            .functions(TestFunctions.registry())
            .httpCalls(runtime.envelopeConsumer())
            .build();
    String body = "{\"typename\":\"io.statefun.types/long\",\"value\":3}";

    JsonNode first = json(entry.invoke(urlEvent("/call/" + account, "h1", body, null)));
    JsonNode again = json(entry.invoke(urlEvent("/call/" + account, "h1", body, null)));
    JsonNode failed =
        json(entry.invoke(urlEvent("/call/" + account, "h2", body.replace("3", "-30"), null)));
    JsonNode wrongType =
        json(entry.invoke(urlEvent("/call/" + account, "h3", body, "application/octet-stream")));
    JsonNode unknown = json(entry.invoke(urlEvent("/call/nope/x/1", "h4", body, null)));
    JsonNode badKey = json(entry.invoke(urlEvent("/call/" + account, "", body, null)));

    assertEquals(200, first.get("statusCode").asInt(), first::toString);
    JsonNode answer = JSON.readTree(first.get("body").asText());
    assertEquals(3, answer.get("reply").get("value").asLong(), answer::toString);
    assertTrue(JSON.readTree(again.get("body").asText()).get("repeat").asBoolean());
    assertEquals(500, failed.get("statusCode").asInt());
    assertTrue(failed.get("body").asText().contains("insufficient funds"), failed::toString);
    assertEquals(415, wrongType.get("statusCode").asInt());
    assertEquals(400, unknown.get("statusCode").asInt(), unknown::toString);
    assertEquals(400, badKey.get("statusCode").asInt(), badKey::toString);
    assertEquals(3, balance(account));
  }

  private static byte[] urlEvent(String path, String key, String body, String contentType) {
    com.fasterxml.jackson.databind.node.ObjectNode event = JSON.createObjectNode();
    event.put("rawPath", path);
    event.putObject("requestContext").putObject("http").put("method", "POST");
    com.fasterxml.jackson.databind.node.ObjectNode headers = event.putObject("headers");
    headers.put("content-type", contentType == null ? "application/json" : contentType);
    headers.put("idempotency-key", key);
    event.put("body", body);
    return event.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aCallOnTheQueueIsDeadLetteredWithWhy() {
    FunctionRuntime runtime = runtime();
    Address account = address(TestFunctions.ACCOUNT, "queued");
    queue()
        .bus()
        .send(
            List.of(
                new BusMessage(
                    Ingress.groupId(account),
                    "q1",
                    "{\"target\":\""
                        + account
                        + "\",\"typename\":\"io.statefun.types/long\",\"value\":1,\"call\":true}")));

    drain(runtime);

    assertEquals(0, balance(account));
    List<String> letters = new ArrayList<>();
    deadLetters().peekAll().forEach(m -> letters.add(m.getKey() + " " + m.getValue()));
    assertTrue(
        letters.stream().anyMatch(l -> l.contains("is answered to its caller")), "" + letters);
  }

  private static InvocationHandler forwardingTo(
      FunctionStore real, AtomicBoolean conflicting, Runnable eachConflict) {
    return (proxy, method, args) -> {
      if (method.getName().equals("commit") && conflicting.get()) {
        eachConflict.run();
        throw new CommitConflictException("another writer won (test)");
      }
      try {
        return method.invoke(real, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    };
  }

  DirectInvocation deposit(Address account, long n, String key) {
    return DirectInvocation.of(MessageBuilder.forAddress(account).withValue(n).build(), key);
  }

  static long balanceOf(CallResult result) {
    assertTrue(result.replied(), () -> "no reply: " + result);
    assertNull(result.error(), result::toString);
    return Types.longType().deserialize(result.replyValue());
  }

  long balance(Address account) {
    var value = store().reload(account).values().get(TestFunctions.SUM.name());
    return value == null ? 0 : Types.longType().deserialize(value.bytes());
  }

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static JsonNode json(byte[] bytes) throws Exception {
    return JSON.readTree(bytes);
  }
}
