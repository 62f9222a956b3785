package dev.statekit.protocol;

import static dev.statekit.protocol.PeerWire.parse;
import static dev.statekit.protocol.PeerWire.request;
import static dev.statekit.protocol.PeerWire.string;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction;
import org.junit.jupiter.api.Test;

/**
 * The answer's bytes are exactly what the generated serializer of statefun-sdk-java writes for the
 * same message, at every length where a varint grows a byte, with strings that are not ASCII and
 * one with an unpaired surrogate, and with every kind of effect in one answer.
 */
class AnswerBytesTest {
  private static final TypeName SIZES = TypeName.of("test", "sizes");
  private static final TypeName OUT = TypeName.of("test", "out");
  private static final ValueSpec<String> NOTE = ValueSpec.named("note").withUtf8StringType();
  private static final ValueSpec<String> GONE = ValueSpec.named("gone").withUtf8StringType();

  /** Each argument "N id" sends every effect once with an N-character value to address id. */
  private final RequestReplyHandler handler =
      new RequestReplyHandler(
          StatefulFunctions.builder()
              .withFunction(
                  SIZES,
                  (context, message) -> {
                    String argument = message.asUtf8String();
                    int space = argument.indexOf(' ');
                    String value = "v".repeat(Integer.parseInt(argument.substring(0, space)));
                    String id = argument.substring(space + 1);
                    context.storage().set(NOTE, value);
                    context.storage().remove(GONE);
                    context.send(MessageBuilder.forAddress(SIZES, id).withValue(value).build());
                    context.sendAfter(
                        Duration.ofMillis(value.length() * 1000L + 1),
                        MessageBuilder.forAddress(SIZES, id).withValue(value).build(),
                        id);
                    context.sendAfter(
                        Duration.ofSeconds(1),
                        MessageBuilder.forAddress(SIZES, id).withValue(value).build());
                    context.cancelDelayedMessage(id + "-old");
                    context.send(EgressMessageBuilder.forEgress(OUT).withValue(value).build());
                    // A call's reply: a StateFun cluster has no caller for it, and no such egress.
                    context.send(
                        EgressMessageBuilder.forEgress(dev.statekit.function.Reply.EGRESS)
                            .withValue(value)
                            .build());
                  },
                  NOTE,
                  GONE)
              .build());

  @Test
  void everyVarintWidthIsWrittenAsTheGeneratedSerializerWritesIt() {
    for (int length : List.of(0, 1, 100, 127, 128, 200, 16_383, 16_384, 20_000, 2_097_152)) {
      byte[] ours = answer(length + " user-" + length);
      FromFunction peer = parse(ours);
      assertArrayEquals(peer.toByteArray(), ours, "value length " + length);
      int written =
          peer.getInvocationResult().getOutgoingEgresses(0).getArgument().getValue().size();
      assertTrue(written >= length, "egress value of " + length + " characters: " + written);
      assertEquals(
          1,
          peer.getInvocationResult().getOutgoingEgressesCount(),
          "the reply to statekit/reply is not in the answer");
    }
  }

  @Test
  void idsThatAreNotAsciiAreEncodedAsTheGeneratedSerializerEncodesThem() {
    for (String id : List.of("jürgen", "東京", "emoji-\uD83D\uDE00", "half-\uD83D", "\uDE00-half")) {
      byte[] ours = answer("3 " + id);
      FromFunction peer = parse(ours);
      assertArrayEquals(peer.toByteArray(), ours, id);
      // An unpaired surrogate becomes '?', as the generated serializer's fallback writes it.
      assertEquals(
          new String(id.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8),
          peer.getInvocationResult().getOutgoingMessages(0).getTarget().getId());
    }
  }

  @Test
  void aBatchOfManyInvocationsIsWrittenWhole() {
    PeerWire.Request request = request("test", "sizes", "many").state("note").state("gone");
    for (int i = 0; i < 300; i++) {
      request.message(string((i * 37 % 500) + " peer-" + i));
    }
    byte[] ours = handler.invoke(request.bytes());
    FromFunction peer = parse(ours);
    assertArrayEquals(peer.toByteArray(), ours);
    FromFunction.InvocationResponse result = peer.getInvocationResult();
    assertEquals(300, result.getOutgoingMessagesCount());
    assertEquals(900, result.getDelayedInvocationsCount());
    assertEquals(300, result.getOutgoingEgressesCount());
    assertEquals(2, result.getStateMutationsCount());
  }

  @Test
  void aSmallAnswerAfterALargeOneIsWrittenWhole() {
    // The thread's buffer grows for the large answer and is dropped after it.
    for (String argument : List.of("3 a", "300000 b", "2 c", "70000 d", "0 e")) {
      byte[] ours = answer(argument);
      assertArrayEquals(parse(ours).toByteArray(), ours, argument);
    }
  }

  @Test
  void threadsWritingAtOnceEachGetTheirOwnAnswer() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Void>> runs = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        runs.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 500; i++) {
                    String argument = (i * 131 % 3000) + " t" + thread + "-" + i;
                    byte[] ours = answer(argument);
                    FromFunction peer = parse(ours);
                    assertArrayEquals(peer.toByteArray(), ours, argument);
                    assertEquals(
                        "t" + thread + "-" + i,
                        peer.getInvocationResult().getOutgoingMessages(0).getTarget().getId());
                  }
                  return null;
                }));
      }
      for (Future<Void> run : runs) {
        run.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private byte[] answer(String argument) {
    return handler.invoke(
        request("test", "sizes", "self")
            .state("note")
            .state("gone")
            .message(string(argument))
            .bytes());
  }
}
