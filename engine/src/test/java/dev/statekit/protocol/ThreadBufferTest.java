package dev.statekit.protocol;

import static dev.statekit.protocol.PeerWire.parse;
import static dev.statekit.protocol.PeerWire.request;
import static dev.statekit.protocol.PeerWire.string;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.statefun.sdk.java.types.Types;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction;
import org.apache.flink.statefun.sdk.reqreply.generated.TypedValue;
import org.apache.flink.statefun.sdk.shaded.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;

/**
 * The writer's buffer and the reader are the thread's and reused: nothing handed out (an answer, a
 * message's bytes a function keeps) shares them, every nested length is written at every varint
 * width, and what a large request or answer grew is not kept by the thread after it.
 */
class ThreadBufferTest {
  private static final TypeName ECHO = TypeName.of("test", "echo");
  private static final TypeName OUT = TypeName.of("test", "out");
  private static final ValueSpec<String> LAST = ValueSpec.named("last").withUtf8StringType();

  /** What the function kept of each message: its bytes as the engine handed them. */
  private final List<byte[]> kept = new ArrayList<>();

  private final List<byte[]> keptCopies = new ArrayList<>();

  /** "N c": sends N copies of the char c to the egress and keeps them in state. */
  private final RequestReplyHandler handler =
      new RequestReplyHandler(
          StatefulFunctions.builder()
              .withFunction(
                  ECHO,
                  (context, message) -> {
                    byte[] raw = message.rawValue();
                    kept.add(raw);
                    keptCopies.add(raw.clone());
                    String value = expand(message.asUtf8String());
                    context.storage().set(LAST, value);
                    context.send(EgressMessageBuilder.forEgress(OUT).withValue(value).build());
                  },
                  LAST)
              .build());

  @Test
  void answersKeptByTheCallerNeverChangeWhenTheThreadAnswersAgain() {
    List<byte[]> answers = new ArrayList<>();
    List<byte[]> copies = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    // Under, at and past the capacity the thread keeps, with a different char each time so that
    // bytes written over an earlier answer would show.
    String[] arguments = {"3 a", "200000 b", "5 c", "300000 d", "7 e", "100 f", "16384 g", "0 h"};
    for (String argument : arguments) {
      byte[] answer = answer(argument);
      answers.add(answer);
      copies.add(answer.clone());
      expected.add(expand(argument));
      for (int i = 0; i < answers.size(); i++) {
        assertArrayEquals(copies.get(i), answers.get(i), "answer to " + arguments[i] + " changed");
      }
    }
    for (int i = 0; i < answers.size(); i++) {
      assertEquals(expected.get(i), egressValue(answers.get(i)), arguments[i]);
    }
    for (int i = 0; i < kept.size(); i++) {
      assertArrayEquals(keptCopies.get(i), kept.get(i), "kept message " + i + " changed");
    }
  }

  @Test
  void everyNestedLengthCrossesEachVarintWidthAsProtobufWritesIt() {
    List<Integer> lengths = new ArrayList<>();
    for (int n = 0; n <= 300; n++) {
      lengths.add(n);
    }
    for (int n = 16_300; n <= 16_420; n++) {
      lengths.add(n);
    }
    for (int n = 2_097_100; n <= 2_097_160; n += 6) {
      lengths.add(n);
    }
    for (int n : lengths) {
      String argument = n + " x";
      byte[] ours = answer(argument);
      FromFunction peer = parse(ours);
      assertArrayEquals(peer.toByteArray(), ours, "value of " + n);
      assertEquals(expand(argument), egressValue(ours), "value of " + n);
      assertEquals(
          expand(argument),
          PeerWire.value(
              Types.stringType(), peer.getInvocationResult().getStateMutations(0).getStateValue()),
          "state of " + n);
    }
  }

  @Test
  void aLargeRequestAndAnswerAreNotKeptByTheThreadAfterThem() throws Exception {
    String large = "10000000 z";
    PeerWire.Request big = request("test", "echo", "big").state("last");
    big.message(string(large + " ".repeat(10_000_000)));
    assertEquals(expand(large), egressValue(handler.invoke(big.bytes())));
    assertEquals("s", egressValue(answer("1 s")));

    Object writer = threadLocal(FromFunctionWriter.class, "WRITERS");
    byte[] buf = (byte[]) field(writer, "buf");
    assertTrue(buf.length <= 256 * 1024, "the thread kept a writer buffer of " + buf.length);
    Object reader = threadLocal(ToFunctionReader.class, "READERS");
    assertNull(field(reader, "in"), "the thread's reader keeps the last request");
    // Nothing else it keeps refers to anything of the request: only arrays of numbers (where
    // things were in a request) stay.
    for (Field field : ToFunctionReader.class.getDeclaredFields()) {
      if (Modifier.isStatic(field.getModifiers()) || field.getType().isPrimitive()) {
        continue;
      }
      field.setAccessible(true);
      Object value = field.get(reader);
      assertTrue(
          value == null || value instanceof int[] || value instanceof boolean[],
          "the thread's reader keeps " + field.getName() + ": " + value);
    }
  }

  @Test
  void largeNamesInAnswersAreNotKeptByTheThreadAfterThem() throws Exception {
    // A function that forwards what it gets under the type name it came with: the request decides
    // the names in the answer, here 40 distinct ones of 64 KiB.
    RequestReplyHandler forwarding =
        new RequestReplyHandler(
            StatefulFunctions.builder()
                .withFunction(
                    ECHO,
                    (context, message) -> {
                      TypeName type = message.valueTypeName();
                      context.send(
                          EgressMessageBuilder.forEgress(TypeName.of("out", type.name()))
                              .withRawValue(type, message.rawValue())
                              .build());
                      context.send(
                          MessageBuilder.forAddress(ECHO, "next")
                              .withRawValue(type, message.rawValue())
                              .build());
                    })
                .build());
    for (int i = 0; i < 40; i++) {
      String name = "n" + i + "-" + "x".repeat(64 * 1024);
      byte[] answer =
          forwarding.invoke(
              request("test", "echo", "self")
                  .message(
                      TypedValue.newBuilder()
                          .setTypename("big/" + name)
                          .setHasValue(true)
                          .setValue(ByteString.copyFromUtf8("v"))
                          .build())
                  .bytes());
      assertEquals(
          "big/" + name,
          parse(answer).getInvocationResult().getOutgoingMessages(0).getArgument().getTypename());
    }

    Object writer = threadLocal(FromFunctionWriter.class, "WRITERS");
    long kept = 0;
    for (Field field : FromFunctionWriter.class.getDeclaredFields()) {
      if (field.getType() == HeadMemo.class) {
        field.setAccessible(true);
        for (byte[] head : (byte[][]) field(field.get(writer), "heads")) {
          kept += head == null ? 0 : head.length;
        }
      }
    }
    assertTrue(kept <= 256 * 1024, "the thread keeps " + kept + " bytes of names it answered with");
  }

  private byte[] answer(String argument) {
    return handler.invoke(
        request("test", "echo", "self").state("last").message(string(argument)).bytes());
  }

  /** "N c" is N copies of c (an argument with more after its char keeps only the char). */
  private static String expand(String argument) {
    int space = argument.indexOf(' ');
    return String.valueOf(argument.charAt(space + 1))
        .repeat(Integer.parseInt(argument.substring(0, space)));
  }

  private static String egressValue(byte[] answer) {
    return PeerWire.value(
        Types.stringType(),
        parse(answer).getInvocationResult().getOutgoingEgresses(0).getArgument());
  }

  private static Object threadLocal(Class<?> owner, String name) throws Exception {
    Field field = owner.getDeclaredField(name);
    field.setAccessible(true);
    return ((ThreadLocal<?>) field.get(null)).get();
  }

  private static Object field(Object owner, String name) throws Exception {
    Field field = owner.getClass().getDeclaredField(name);
    field.setAccessible(true);
    return field.get(owner);
  }
}
