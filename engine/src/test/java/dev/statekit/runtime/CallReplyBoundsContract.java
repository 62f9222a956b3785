package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.EgressMessage;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Calls at the edges of what a reply may be: replies of exactly the largest size, many large
 * replies committed together on one address, and two callers racing with one key.
 */
abstract class CallReplyBoundsContract extends RuntimeFixture {
  private static final TypeName ECHO = TypeName.of("test", "echo");
  private static final ValueSpec<Long> CALLS = ValueSpec.named("calls").withLongType();
  private static final int MAX_REPLY = 16 * 1024;

  /** Counts its calls and replies exactly {@code n} bytes (a string reply padded to n bytes). */
  private static void echo(Context context, Message message) {
    long n = message.asLong();
    context.storage().set(CALLS, context.storage().get(CALLS).orElse(0L) + 1);
    context.send(replyOf((int) n, context.storage().get(CALLS).orElse(0L)));
  }

  private static EgressMessage replyOf(int bytes, long calls) {
    TypeName reply = TypeName.parse("statekit/reply");
    String head = calls + ":";
    // The string type's wrapper grows with the length: step down to the exact size.
    EgressMessage built = null;
    for (int pad = Math.max(0, bytes - head.length()); pad >= 0; pad--) {
      built = EgressMessageBuilder.forEgress(reply).withValue(head + "x".repeat(pad)).build();
      if (built.rawValue().length <= bytes) {
        break;
      }
    }
    assertEquals(bytes, built.rawValue().length, "the padding is exact");
    return built;
  }

  private FunctionRuntime echoRuntime() {
    return runtime(
        b -> {},
        StatefulFunctions.builder()
            .withFunction(ECHO, CallReplyBoundsContract::echo, CALLS)
            .build());
  }

  private static DirectInvocation ask(Address target, long bytes, String key) {
    return DirectInvocation.of(MessageBuilder.forAddress(target).withValue(bytes).build(), key);
  }

  private long calls(Address target) {
    var value = store().reload(target).values().get(CALLS.name());
    return value == null ? 0 : dev.statekit.types.Types.longType().deserialize(value.bytes());
  }

  private static final TypeName DEEP = TypeName.of("test", "deep");

  /** Replies a JSON value nesting arrays as many levels deep as the long message says. */
  private static void deep(Context context, Message message) {
    int levels = (int) message.asLong();
    context.storage().set(CALLS, context.storage().get(CALLS).orElse(0L) + 1);
    context.send(
        EgressMessageBuilder.forEgress(TypeName.parse("statekit/reply"))
            .withRawValue(TypeName.of("test", "json"), nested(levels))
            .build());
  }

  private static byte[] nested(int levels) {
    return ("[".repeat(levels) + "]".repeat(levels)).getBytes(StandardCharsets.UTF_8);
  }

  // A JSON reply is read up to Jackson's 1,000 levels and then written inside the answer two levels
  // deeper ({"reply": {"value": ...}}), three in a batch's answer: each call is still answered
  // "applied", once, with its reply's bytes exact (as JSON, or as base64 when too deep for that).
  @ParameterizedTest
  @ValueSource(ints = {990, 997, 998, 999, 1000, 1001})
  void aReplyNestedNearJsonsDepthLimitIsAnsweredWithItsBytes(int levels) {
    FunctionRuntime runtime =
        runtime(
            b -> {},
            StatefulFunctions.builder()
                .withFunction(DEEP, CallReplyBoundsContract::deep, CALLS)
                .build());
    Address target = address(DEEP, "levels-" + levels);
    String call =
        "{\"target\": \""
            + target
            + "\", \"typename\": \"io.statefun.types/long\", \"value\": "
            + levels
            + ", \"id\": \"deep\", \"call\": true}";

    List<JsonNode> answers = new ArrayList<>();
    for (String payload : List.of(call, call, "[" + call + "]")) {
      byte[] answer;
      try {
        answer = runtime.invokeJson(payload.getBytes(StandardCharsets.UTF_8));
      } catch (RuntimeException e) {
        throw new AssertionError("the call was not answered: " + e, e);
      }
      JsonNode node;
      try {
        node = CallContract.json(answer);
      } catch (Exception e) {
        throw new AssertionError("the answer is not JSON", e);
      }
      answers.add(node.has("results") ? node.get("results").get(0) : node);
    }

    for (JsonNode answer : answers) {
      assertEquals("applied", answer.path("status").asText(), answer::toString);
      assertArrayEquals(nested(levels), replyBytes(answer.get("reply")), "the reply, exact");
    }
    assertEquals(1, calls(target), "applied once");
  }

  /** A reply's bytes, given as JSON ("value") or base64 ("base64"). */
  private static byte[] replyBytes(JsonNode reply) {
    if (reply.has("base64")) {
      return java.util.Base64.getDecoder().decode(reply.get("base64").asText());
    }
    return dev.statekit.json.PlainJson.write(reply.get("value"));
  }

  @Test
  void aReplyOfExactlyTheLargestSizeIsKeptWholeAndOneByteMoreIsRejected() {
    FunctionRuntime runtime = echoRuntime();
    Address target = address(ECHO, "max");

    CallResult max = runtime.call(ask(target, MAX_REPLY, "max"));
    // More calls push the large reply out of the item (its budget is 1 KiB) into a mark of its own.
    for (int i = 0; i < 5; i++) {
      runtime.call(ask(target, 10, "small-" + i));
    }
    CallResult again = runtime.call(ask(target, MAX_REPLY, "max"));
    CallResult over = runtime.call(ask(target, MAX_REPLY + 1, "over"));

    assertEquals(CallResult.Status.APPLIED, max.status(), max::toString);
    assertEquals(MAX_REPLY, max.replyValue().length);
    assertTrue(again.repeat(), again::toString);
    assertArrayEquals(max.replyValue(), again.replyValue(), "the spilled reply, whole");
    assertEquals(CallResult.Status.REJECTED, over.status(), over::toString);
    assertFalse(over.retryable());
    assertEquals(6, calls(target), "the rejected call applied nothing");
  }

  @Test
  void manyLargeRepliesCommittedTogetherOnOneAddressAreAllAppliedAndAnswered() {
    FunctionRuntime runtime = echoRuntime();
    Address target = address(ECHO, "many");
    List<DirectInvocation> batch = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      batch.add(ask(target, MAX_REPLY, "big-" + i));
    }

    // What one commit cannot hold runs in a later commit of the same batch: no call is answered
    // "call again" (before 4 December the later ones were, and the caller had to).
    List<CallResult> results = runtime.call(batch, Duration.ofSeconds(10));
    List<CallResult> retried = runtime.call(batch, Duration.ofSeconds(10));

    for (int i = 0; i < batch.size(); i++) {
      CallResult result = results.get(i);
      assertEquals(CallResult.Status.APPLIED, result.status(), "call " + i + ": " + result);
      assertEquals(MAX_REPLY, result.replyValue().length);
      assertTrue(retried.get(i).repeat(), retried.get(i)::toString);
      assertArrayEquals(result.replyValue(), retried.get(i).replyValue(), "call " + i);
    }
    assertEquals(batch.size(), calls(target), "each applied once");
    // The next commit takes the large replies out of the item.
    runtime.call(ask(target, 10, "after"));
    assertTrue(
        store().reload(target).runtimeData().length < 8 * 1024,
        "the item stays small: " + store().reload(target).runtimeData().length + " bytes");
  }

  @Test
  void twoCallersRacingWithOneKeyApplyItOnceAndBothGetItsReply() throws Exception {
    FunctionRuntime runtime = echoRuntime();
    for (int round = 0; round < 20; round++) {
      Address target = address(ECHO, "race-" + round);
      runtime.call(ask(target, 10, "warm-" + round));
      CountDownLatch start = new CountDownLatch(1);
      ExecutorService pool = Executors.newFixedThreadPool(2);
      List<Future<CallResult>> answers = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        answers.add(
            pool.submit(
                () -> {
                  start.await();
                  CallResult result;
                  do {
                    result = runtime.call(ask(target, 20, "same"));
                  } while (result.status() == CallResult.Status.BUSY);
                  return result;
                }));
      }
      start.countDown();
      CallResult a = answers.get(0).get(30, TimeUnit.SECONDS);
      CallResult b = answers.get(1).get(30, TimeUnit.SECONDS);
      pool.shutdown();

      assertEquals(CallResult.Status.APPLIED, a.status(), a::toString);
      assertEquals(CallResult.Status.APPLIED, b.status(), b::toString);
      assertTrue(a.repeat() != b.repeat(), "one applied, one repeat: " + a + " / " + b);
      assertArrayEquals(a.replyValue(), b.replyValue(), "the same reply");
      assertEquals(2, calls(target), "applied once");
    }
  }

  @Test
  void aCallWhoseAnswerWasLostSendsItsMessagesAndEgressOnceAndItsRetryGetsTheReply() {
    Address account = address(TestFunctions.ACCOUNT, "lost");
    FunctionRuntime crashing =
        runtime(
            b ->
                b.faultHook(
                    (step, address) -> {
                      if (step == dev.statekit.runtime.internal.FaultHook.Step.COMMITTED) {
                        throw new QueueBatchContract.SimulatedCrash();
                      }
                    }));
    FunctionRuntime healthy = runtime();

    org.junit.jupiter.api.Assertions.assertThrows(
        QueueBatchContract.SimulatedCrash.class,
        () ->
            crashing.call(
                DirectInvocation.of(
                    MessageBuilder.forAddress(account).withValue(7L).build(), "lost-1")));
    CallResult first =
        healthy.call(
            DirectInvocation.of(
                MessageBuilder.forAddress(account).withValue(7L).build(), "lost-1"));
    CallResult second =
        healthy.call(
            DirectInvocation.of(
                MessageBuilder.forAddress(account).withValue(7L).build(), "lost-1"));

    assertTrue(first.repeat(), first::toString);
    assertTrue(second.repeat(), second::toString);
    assertEquals(7L, CallContract.balanceOf(first));
    assertEquals(7L, CallContract.balanceOf(second));
    long egress = counted.texts().stream().filter(t -> t.contains(account.id())).count();
    assertEquals(1, egress, "the egress of the one application, once: " + counted.texts());
  }

  @Test
  void aKeyRepeatedInOneBatchAfterItsFirstFailedIsNotAnsweredAsApplied() {
    FunctionRuntime runtime = runtime();
    Address account = address(TestFunctions.ACCOUNT, "twice-failed");
    DirectInvocation withdraw =
        DirectInvocation.of(MessageBuilder.forAddress(account).withValue(-50L).build(), "w");

    List<CallResult> calls = runtime.call(List.of(withdraw, withdraw), Duration.ofSeconds(10));
    List<DirectResult> invokes =
        runtime.invoke(
            List.of(
                DirectInvocation.of(
                    MessageBuilder.forAddress(account).withValue(-50L).build(), "v"),
                DirectInvocation.of(
                    MessageBuilder.forAddress(account).withValue(-50L).build(), "v")));

    assertEquals(CallResult.Status.FAILED, calls.get(0).status(), calls.get(0)::toString);
    assertEquals(
        CallResult.Status.FAILED,
        calls.get(1).status(),
        "nothing was applied under the key: " + calls.get(1));
    assertTrue(calls.get(1).retryable());
    assertEquals(DirectResult.Status.FAILED, invokes.get(0).status(), invokes.get(0)::toString);
    assertEquals(
        DirectResult.Status.FAILED,
        invokes.get(1).status(),
        "nothing was applied under the key: " + invokes.get(1));
  }
}
