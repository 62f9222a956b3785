package dev.statekit.protocol;

import static dev.statekit.protocol.PeerWire.parse;
import static dev.statekit.protocol.PeerWire.request;
import static dev.statekit.protocol.PeerWire.string;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction.EgressMessage;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction.PersistedValueMutation;
import org.junit.jupiter.api.Test;

/**
 * The writer keeps the encoded bytes around each type name, egress and state name from one answer
 * to the next, by the name's identity: names whose hash codes are all equal (so they share a slot),
 * names rebuilt as new instances, and answers written in turn by several threads each get their own
 * name's bytes, as the generated serializer writes them.
 */
class WriterHeadsTest {
  private static final TypeName NAMES = TypeName.of("test", "names");

  /** "Aa" and "BB" hash alike, so every string of such pairs of one length has one hash code. */
  private static final List<String> SAME_HASH = sameHash(5);

  private static final List<TypeName> EGRESSES = names("test");
  private static final List<TypeName> TYPES = names("types");
  private static final List<ValueSpec<String>> STATES = states();

  /**
   * Each argument "K" sends one egress record and one message per name, shifted by K, each with a
   * value of the type named K further on.
   */
  private final RequestReplyHandler handler =
      new RequestReplyHandler(
          StatefulFunctions.builder()
              .withFunction(
                  NAMES,
                  (context, message) -> {
                    int shift = Integer.parseInt(message.asUtf8String());
                    for (int i = 0; i < SAME_HASH.size(); i++) {
                      int k = (i + shift) % SAME_HASH.size();
                      String name = SAME_HASH.get(k);
                      byte[] value = name.getBytes(StandardCharsets.UTF_8);
                      // Every other name the same instance in every answer, the rest new ones.
                      boolean same = i % 2 == 0;
                      TypeName egress = same ? EGRESSES.get(k) : TypeName.of("test", copy(name));
                      // Each egress with another type in each answer, so pairs change too.
                      String typed = name(k + shift);
                      TypeName type =
                          same
                              ? TYPES.get((k + shift) % SAME_HASH.size())
                              : TypeName.of("types", copy(typed));
                      context.send(
                          EgressMessageBuilder.forEgress(egress).withRawValue(type, value).build());
                      context.send(
                          MessageBuilder.forAddress(NAMES, name).withRawValue(type, value).build());
                    }
                    // One egress, one instance, with each type in turn: the same egress with a
                    // type it was not last written with.
                    for (TypeName type : TYPES) {
                      context.send(
                          EgressMessageBuilder.forEgress(EGRESSES.get(shift % EGRESSES.size()))
                              .withRawValue(type, new byte[] {1})
                              .build());
                    }
                    for (int i = 0; i < STATES.size(); i++) {
                      context.storage().set(STATES.get(i), name(i + shift));
                    }
                  },
                  STATES.toArray(new ValueSpec<?>[0]))
              .build());

  @Test
  void namesSharingASlotEachKeepTheirOwnBytes() {
    for (int shift = 0; shift < 3; shift++) {
      check(shift);
    }
  }

  @Test
  void threadsAnsweringInTurnEachWriteTheirOwnNames() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<Future<Void>> runs = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        int thread = t;
        runs.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 50; i++) {
                    check(thread * 7 + i);
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

  private void check(int shift) {
    PeerWire.Request request = request("test", "names", "n");
    for (ValueSpec<String> state : STATES) {
      request.state(state.name());
    }
    byte[] ours = handler.invoke(request.message(string(Integer.toString(shift))).bytes());
    FromFunction peer = parse(ours);
    assertArrayEquals(peer.toByteArray(), ours, "shift " + shift);
    FromFunction.InvocationResponse result = peer.getInvocationResult();
    for (int i = 0; i < SAME_HASH.size(); i++) {
      String name = name(i + shift);
      EgressMessage egress = result.getOutgoingEgresses(i);
      assertEquals("test/" + name, egress.getEgressNamespace() + "/" + egress.getEgressType());
      assertEquals("types/" + name(i + 2 * shift), egress.getArgument().getTypename());
      assertEquals(name, egress.getArgument().getValue().toStringUtf8());
      FromFunction.Invocation sent = result.getOutgoingMessages(i);
      assertEquals(name, sent.getTarget().getId());
      assertEquals("types/" + name(i + 2 * shift), sent.getArgument().getTypename());
    }
    for (int t = 0; t < TYPES.size(); t++) {
      EgressMessage egress = result.getOutgoingEgresses(SAME_HASH.size() + t);
      assertEquals(
          "test/" + name(shift), egress.getEgressNamespace() + "/" + egress.getEgressType());
      assertEquals("types/" + name(t), egress.getArgument().getTypename());
    }
    for (int i = 0; i < STATES.size(); i++) {
      PersistedValueMutation mutation = result.getStateMutations(i);
      assertEquals(STATES.get(i).name(), mutation.getStateName());
      assertEquals(
          name(i + shift),
          PeerWire.value(
              org.apache.flink.statefun.sdk.java.types.Types.stringType(),
              mutation.getStateValue()));
    }
  }

  private static String name(int index) {
    return SAME_HASH.get(index % SAME_HASH.size());
  }

  private static String copy(String name) {
    return new String(name.toCharArray());
  }

  private static List<TypeName> names(String namespace) {
    List<TypeName> names = new ArrayList<>();
    for (String name : SAME_HASH) {
      names.add(TypeName.of(namespace, name));
    }
    return names;
  }

  private static List<String> sameHash(int pairs) {
    List<String> names = new ArrayList<>();
    for (int bits = 0; bits < 1 << pairs; bits++) {
      StringBuilder name = new StringBuilder();
      for (int p = 0; p < pairs; p++) {
        name.append((bits >> p & 1) == 0 ? "Aa" : "BB");
      }
      names.add(name.toString());
    }
    return names;
  }

  private static List<ValueSpec<String>> states() {
    List<ValueSpec<String>> states = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      states.add(ValueSpec.named("s" + SAME_HASH.get(i)).withUtf8StringType());
    }
    return states;
  }
}
