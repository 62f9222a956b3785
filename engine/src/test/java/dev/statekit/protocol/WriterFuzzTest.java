package dev.statekit.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.Type;
import dev.statekit.types.TypeName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.apache.flink.statefun.sdk.reqreply.generated.Address;
import org.apache.flink.statefun.sdk.reqreply.generated.FromFunction;
import org.apache.flink.statefun.sdk.reqreply.generated.ToFunction;
import org.apache.flink.statefun.sdk.reqreply.generated.TypedValue;
import org.apache.flink.statefun.sdk.shaded.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;

/**
 * Answers with random effects (egress records, messages, delayed messages and cancellations, state
 * writes and removals) whose names are kept instances, equal names in new instances, names whose
 * hash codes collide, and names and values of every length around the one-byte limits: each answer
 * is the bytes the SDK's generated classes write for the same effects. Two functions with their own
 * names take turns on one thread, and several threads answer at once. Seeded; a failure names its
 * seed.
 */
class WriterFuzzTest {
  private static final List<String> NAMES = names();
  private static final List<TypeName> KEPT_TYPES = new ArrayList<>();
  private static final List<TypeName> KEPT_EGRESSES = new ArrayList<>();

  static {
    for (String name : NAMES) {
      KEPT_TYPES.add(TypeName.of(name.length() % 2 == 0 ? "types" : "type.googleapis.com", name));
      KEPT_EGRESSES.add(TypeName.of("eg", name));
    }
  }

  private static final TypeName[] FUNCTIONS = {TypeName.of("f", "one"), TypeName.of("f", "two")};

  /** The plan of each argument, by its text. */
  private final Map<String, Consumer<Context>> plans = new ConcurrentHashMap<>();

  private final List<List<ValueSpec<byte[]>>> specs = List.of(specs(0), specs(1));

  private final RequestReplyHandler handler =
      new RequestReplyHandler(
          StatefulFunctions.builder()
              .withFunction(
                  FUNCTIONS[0],
                  (context, message) -> plans.get(message.asUtf8String()).accept(context),
                  specs.get(0).toArray(new ValueSpec<?>[0]))
              .withFunction(
                  FUNCTIONS[1],
                  (context, message) -> plans.get(message.asUtf8String()).accept(context),
                  specs.get(1).toArray(new ValueSpec<?>[0]))
              .build());

  @Test
  void answersAreWhatTheSdkWritesForTheSameEffects() {
    long base = Long.getLong("statekit.fuzz.seed", 7L);
    for (int run = 0; run < 3000; run++) {
      check(base + run);
    }
  }

  @Test
  void threadsAnsweringAtOnceEachWriteTheirOwnEffects() throws Exception {
    long base = Long.getLong("statekit.fuzz.seed", 7L) + 1_000_000;
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> runs = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        long first = base + t * 10_000L;
        runs.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 1500; i++) {
                    check(first + i);
                  }
                }));
      }
      for (Future<?> run : runs) {
        run.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private void check(long seed) {
    Random r = new Random(seed);
    int function = r.nextInt(2);
    List<ValueSpec<byte[]>> functionSpecs = specs.get(function);
    ToFunction.InvocationBatchRequest.Builder batch =
        ToFunction.InvocationBatchRequest.newBuilder()
            .setTarget(
                Address.newBuilder()
                    .setNamespace(FUNCTIONS[function].namespace())
                    .setType(FUNCTIONS[function].name())
                    .setId("id"));
    // Every state has a value to start with, so a removal is a DELETE.
    for (ValueSpec<byte[]> spec : functionSpecs) {
      batch.addState(
          ToFunction.PersistedValue.newBuilder()
              .setStateName(spec.name())
              .setStateValue(typed(spec.type().typeName().asString(), new byte[] {1})));
    }
    FromFunction.InvocationResponse.Builder expected = FromFunction.InvocationResponse.newBuilder();
    List<FromFunction.EgressMessage> egresses = new ArrayList<>();
    List<FromFunction.DelayedInvocation> delayed = new ArrayList<>();
    Map<String, FromFunction.PersistedValueMutation> mutations = new ConcurrentHashMap<>();
    int invocations = 1 + r.nextInt(4);
    for (int i = 0; i < invocations; i++) {
      String key = seed + "/" + i;
      List<Consumer<Context>> actions = new ArrayList<>();
      int count = r.nextInt(8);
      for (int a = 0; a < count; a++) {
        byte[] value = value(r);
        int kind = r.nextInt(6);
        TypeName type = typeName(r);
        if (kind == 0) {
          TypeName egress = egressName(r);
          actions.add(
              c ->
                  c.send(EgressMessageBuilder.forEgress(egress).withRawValue(type, value).build()));
          egresses.add(
              FromFunction.EgressMessage.newBuilder()
                  .setEgressNamespace(egress.namespace())
                  .setEgressType(egress.name())
                  .setArgument(typed(type.asString(), value))
                  .build());
        } else if (kind == 1) {
          String id = NAMES.get(r.nextInt(NAMES.size()));
          TypeName target = KEPT_TYPES.get(r.nextInt(KEPT_TYPES.size()));
          actions.add(
              c -> c.send(MessageBuilder.forAddress(target, id).withRawValue(type, value).build()));
          expected.addOutgoingMessages(
              FromFunction.Invocation.newBuilder()
                  .setTarget(address(target, id))
                  .setArgument(typed(type.asString(), value)));
        } else if (kind == 2) {
          TypeName target = KEPT_TYPES.get(r.nextInt(KEPT_TYPES.size()));
          long millis = r.nextInt(3) == 0 ? 0 : 1 + r.nextInt(1 << 20);
          String token = r.nextBoolean() ? "" : "tok-" + r.nextInt(1000);
          actions.add(
              c -> {
                var message =
                    MessageBuilder.forAddress(target, "d").withRawValue(type, value).build();
                if (token.isEmpty()) {
                  c.sendAfter(Duration.ofMillis(millis), message);
                } else {
                  c.sendAfter(Duration.ofMillis(millis), message, token);
                }
              });
          delayed.add(
              FromFunction.DelayedInvocation.newBuilder()
                  .setDelayInMs(millis)
                  .setTarget(address(target, "d"))
                  .setArgument(typed(type.asString(), value))
                  .setCancellationToken(token)
                  .build());
        } else if (kind == 3) {
          String token = "tok-" + r.nextInt(1000);
          actions.add(c -> c.cancelDelayedMessage(token));
          delayed.add(
              FromFunction.DelayedInvocation.newBuilder()
                  .setIsCancellationRequest(true)
                  .setCancellationToken(token)
                  .build());
        } else if (kind == 4) {
          ValueSpec<byte[]> spec = functionSpecs.get(r.nextInt(functionSpecs.size()));
          actions.add(c -> c.storage().set(spec, value));
          mutations.put(
              spec.name(),
              FromFunction.PersistedValueMutation.newBuilder()
                  .setMutationType(FromFunction.PersistedValueMutation.MutationType.MODIFY)
                  .setStateName(spec.name())
                  .setStateValue(typed(spec.type().typeName().asString(), value))
                  .build());
        } else {
          ValueSpec<byte[]> spec = functionSpecs.get(r.nextInt(functionSpecs.size()));
          actions.add(c -> c.storage().remove(spec));
          mutations.put(
              spec.name(),
              FromFunction.PersistedValueMutation.newBuilder()
                  .setMutationType(FromFunction.PersistedValueMutation.MutationType.DELETE)
                  .setStateName(spec.name())
                  .build());
        }
      }
      plans.put(key, c -> actions.forEach(action -> action.accept(c)));
      batch.addInvocations(
          ToFunction.Invocation.newBuilder()
              .setArgument(typed("io.statefun.types/string", stringValue(key))));
    }
    expected.addAllDelayedInvocations(delayed).addAllOutgoingEgresses(egresses);
    List<FromFunction.PersistedValueMutation> sorted = new ArrayList<>(mutations.values());
    sorted.sort(Comparator.comparing(FromFunction.PersistedValueMutation::getStateName));
    expected.addAllStateMutations(sorted);
    byte[] request = ToFunction.newBuilder().setInvocation(batch).build().toByteArray();
    byte[] ours;
    try {
      ours = handler.invoke(request);
    } finally {
      for (int i = 0; i < invocations; i++) {
        plans.remove(seed + "/" + i);
      }
    }
    FromFunction peer = PeerWire.parse(ours);
    assertArrayEquals(peer.toByteArray(), ours, "seed " + seed + ": not the SDK's bytes");
    FromFunction.InvocationResponse actual = peer.getInvocationResult();
    List<FromFunction.PersistedValueMutation> actualMutations =
        new ArrayList<>(actual.getStateMutationsList());
    actualMutations.sort(Comparator.comparing(FromFunction.PersistedValueMutation::getStateName));
    actual = actual.toBuilder().clearStateMutations().addAllStateMutations(actualMutations).build();
    assertEquals(expected.build(), actual, "seed " + seed);
  }

  /** A kept type name instance, or an equal one in a new instance. */
  private static TypeName typeName(Random r) {
    TypeName kept = KEPT_TYPES.get(r.nextInt(KEPT_TYPES.size()));
    return r.nextInt(4) == 0
        ? TypeName.of(
            new String(kept.namespace().toCharArray()), new String(kept.name().toCharArray()))
        : kept;
  }

  private static TypeName egressName(Random r) {
    TypeName kept = KEPT_EGRESSES.get(r.nextInt(KEPT_EGRESSES.size()));
    return r.nextInt(4) == 0 ? TypeName.of("eg", new String(kept.name().toCharArray())) : kept;
  }

  private static byte[] value(Random r) {
    int length =
        switch (r.nextInt(5)) {
          case 0 -> 0;
          case 1 -> r.nextInt(8);
          case 2 -> 90 + r.nextInt(50);
          case 3 -> r.nextBoolean() ? 16_370 + r.nextInt(30) : 200 + r.nextInt(200);
          default -> r.nextInt(130);
        };
    byte[] value = new byte[length];
    r.nextBytes(value);
    return value;
  }

  private static TypedValue typed(String typeName, byte[] value) {
    return TypedValue.newBuilder()
        .setTypename(typeName)
        .setHasValue(true)
        .setValue(ByteString.copyFrom(value))
        .build();
  }

  private static byte[] stringValue(String text) {
    return org.apache.flink.statefun.sdk.java.types.Types.stringType()
        .typeSerializer()
        .serialize(text)
        .toByteArray();
  }

  private static Address address(TypeName type, String id) {
    return Address.newBuilder()
        .setNamespace(type.namespace())
        .setType(type.name())
        .setId(id)
        .build();
  }

  /** Names of many lengths, some pairs with equal hash codes ("Aa" and "BB" hash alike). */
  private static List<String> names() {
    List<String> names = new ArrayList<>();
    for (String pair : new String[] {"AaAa", "AaBB", "BBAa", "BBBB"}) {
      names.add(pair);
    }
    for (int length :
        new int[] {
          1, 7, 8, 9, 60, 100, 110, 118, 119, 120, 121, 125, 126, 127, 128, 200, 300, 2000
        }) {
      names.add("n".repeat(length - 1) + (char) ('a' + length % 26));
    }
    names.add("é-ü");
    return names;
  }

  /**
   * Each function's states: state names shared with the other function, in instances of its own.
   */
  private static List<ValueSpec<byte[]>> specs(int function) {
    List<ValueSpec<byte[]>> specs = new ArrayList<>();
    String[] stateNames = {"AaAa", "BBBB", "AaBB", "s", "x".repeat(130), "state"};
    for (int i = 0; i < stateNames.length; i++) {
      String name = new String(stateNames[i].toCharArray());
      TypeName type = KEPT_TYPES.get((i * 5 + function) % KEPT_TYPES.size());
      specs.add(ValueSpec.named(name).withCustomType(new Raw(type, function == 1 && i % 2 == 0)));
    }
    return specs;
  }

  /** Bytes as they are, named {@code type}; a fresh name instance on each call if asked. */
  private static final class Raw implements Type<byte[]> {
    private final TypeName type;
    private final boolean fresh;

    Raw(TypeName type, boolean fresh) {
      this.type = type;
      this.fresh = fresh;
    }

    @Override
    public TypeName typeName() {
      return fresh ? TypeName.of(type.namespace(), new String(type.name().toCharArray())) : type;
    }

    @Override
    public byte[] serialize(byte[] value) {
      return value.clone();
    }

    @Override
    public byte[] deserialize(byte[] bytes) {
      return bytes.clone();
    }
  }
}
