package dev.statekit.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.statekit.invocation.TypedValue;
import dev.statekit.protocol.internal.wire.Address;
import dev.statekit.protocol.internal.wire.ToFunction;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The hand-written {@code ToFunction} reader against the reference SDK's parser ({@link
 * #asTheSdkReadsIt}), on the same bytes: both accept with the same values, or both refuse (the
 * reader keeps neither states named "" nor invocations past the first the handler refuses, and
 * keeps every other); the reader throws nothing but {@link MalformedRequestException} and allocates
 * at most a fixed multiple of the input's size; the thread's reused reader, which the handler reads
 * with, agrees with both.
 *
 * <p>{@code mvn -B verify} replays the seeds under {@code ToFunctionReaderFuzzTestInputs/} and
 * fuzzes for a few seconds; the README's "Fuzzing" says how to fuzz for longer.
 */
class ToFunctionReaderFuzzTest {
  /** Bytes the reader may allocate per byte read, plus a fixed allowance (see the class doc). */
  static final long ALLOCATION_PER_BYTE = 64;

  static final long ALLOCATION_ALLOWANCE = 64 * 1024;

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  static {
    // Loads the classes of both ways out of the reader and links what it links on first use (the
    // byte view ByteRanges compares names with spins method handles, about a megabyte, once per
    // JVM), so only the reading itself is measured.
    for (byte[] warmUp :
        new byte[][] {
          {(byte) 0xA2, 0x06, 0x00},
          {(byte) 0xA2, 0x06, 0x05},
          batchOfRepeatedNames(),
          invocationsAfterARefusedOne(false),
          invocationsAfterARefusedOne(true)
        }) {
      try {
        ToFunctionReader.read(warmUp, new StringInterner());
      } catch (MalformedRequestException e) {
        // The second one is cut short on purpose, the last one not UTF-8.
      }
    }
    // And the seeds: each may take a way through the reader (a skipped invocation, a non-ASCII
    // string) whose first use links classes, which no reading of a request allocates again.
    for (byte[] seed : seeds()) {
      try {
        ToFunctionReader.read(seed, new StringInterner());
      } catch (MalformedRequestException e) {
        // Many are malformed on purpose.
      }
    }
    THREADS.getCurrentThreadAllocatedBytes();
  }

  private static List<byte[]> seeds() {
    try {
      Path directory =
          Path.of(
              ToFunctionReaderFuzzTest.class
                  .getResource("ToFunctionReaderFuzzTestInputs/agreesWithProtobufJava")
                  .toURI());
      List<byte[]> seeds = new ArrayList<>();
      try (var files = Files.list(directory)) {
        for (Path file : files.sorted().toList()) {
          seeds.add(Files.readAllBytes(file));
        }
      }
      return seeds;
    } catch (IOException | URISyntaxException e) {
      throw new IllegalStateException("The fuzz test's seeds could not be read", e);
    }
  }

  /**
   * A batch whose first invocation has no argument, so that the reader reads those after it through
   * without keeping them: one with a non-ASCII caller id, then (if {@code invalid}) the same id cut
   * into bytes that are not UTF-8.
   */
  private static byte[] invocationsAfterARefusedOne(boolean invalid) {
    ToFunction.InvocationBatchRequest.Builder batch =
        ToFunction.InvocationBatchRequest.newBuilder()
            .setTarget(Address.newBuilder().setNamespace("warm").setType("target").setId("up"))
            .addInvocations(ToFunction.Invocation.newBuilder())
            .addInvocations(
                ToFunction.Invocation.newBuilder()
                    .setCaller(
                        Address.newBuilder()
                            .setNamespace("warm")
                            .setType("caller")
                            .setId("\u00fcber"))
                    .setArgument(
                        dev.statekit.protocol.internal.wire.TypedValue.newBuilder()
                            .setTypename("io.statefun.types/string")
                            .setHasValue(true)));
    byte[] bytes = ToFunction.newBuilder().setInvocation(batch).build().toByteArray();
    if (invalid) {
      for (int i = 0; i + 1 < bytes.length; i++) {
        if (bytes[i] == (byte) 0xC3 && bytes[i + 1] == (byte) 0xBC) {
          bytes[i + 1] = 0x28;
        }
      }
    }
    return bytes;
  }

  /** A batch whose invocations share their caller and argument type: every name is compared. */
  private static byte[] batchOfRepeatedNames() {
    Address caller =
        Address.newBuilder().setNamespace("warm").setType("caller").setId("up").build();
    ToFunction.InvocationBatchRequest.Builder batch =
        ToFunction.InvocationBatchRequest.newBuilder()
            .setTarget(Address.newBuilder().setNamespace("warm").setType("target").setId("up"));
    for (int i = 0; i < 3; i++) {
      batch.addInvocations(
          ToFunction.Invocation.newBuilder()
              .setCaller(caller)
              .setArgument(
                  dev.statekit.protocol.internal.wire.TypedValue.newBuilder()
                      .setTypename("io.statefun.types/string")
                      .setHasValue(true)
                      .setValue(com.google.protobuf.ByteString.copyFromUtf8("value " + i))));
    }
    return ToFunction.newBuilder().setInvocation(batch).build().toByteArray();
  }

  @FuzzTest
  void agreesWithProtobufJava(byte[] bytes) {
    ToFunction expected = asTheSdkReadsIt(bytes);
    ToFunctionReader actual;
    long before = THREADS.getCurrentThreadAllocatedBytes();
    try {
      actual = ToFunctionReader.read(bytes, new StringInterner());
    } catch (MalformedRequestException e) {
      actual = null;
    }
    long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
    assertTrue(
        allocated <= ALLOCATION_PER_BYTE * bytes.length + ALLOCATION_ALLOWANCE,
        allocated + " bytes allocated to read " + bytes.length);
    if (expected == null || actual == null) {
      assertEquals(expected == null, actual == null, "one parser refused, the other accepted");
    } else {
      compare(expected, actual);
    }
    agreesWhenReused(bytes, expected);
  }

  /**
   * {@code bytes} as the reference SDK (statefun-sdk-java, with its own protobuf-java 3.7) reads
   * them, or null if it refuses them. Its parser merges a singular message that comes twice as
   * {@code mergeFrom} does, a later piece's default values (an empty string, {@code false}) leaving
   * the earlier ones, where protobuf-java 4 merges field by field on the wire; the SDK's answer is
   * the one to give. Written again by the SDK (every field once) and read by this project's
   * generated classes, to compare with.
   */
  static ToFunction asTheSdkReadsIt(byte[] bytes) {
    byte[] canonical;
    try {
      canonical =
          org.apache.flink.statefun.sdk.reqreply.generated.ToFunction.parseFrom(bytes)
              .toByteArray();
    } catch (org.apache.flink.statefun.sdk.shaded.com.google.protobuf.InvalidProtocolBufferException
        | RuntimeException e) {
      // protobuf-java 3.7 trips over some malformed lengths (an ArrayIndexOutOfBoundsException
      // where 4 refuses them): the SDK's handler then fails the request, a refusal all the same.
      return null;
    }
    try {
      return ToFunction.parseFrom(canonical);
    } catch (InvalidProtocolBufferException e) {
      throw new AssertionError("What the SDK wrote does not parse: " + e, e);
    }
  }

  /**
   * The handler reads with the thread's reader, reused from one request to the next: it must read
   * each input as a fresh one does, whatever the inputs before it left behind (a larger batch, a
   * refusal part way through).
   */
  private static void agreesWhenReused(byte[] bytes, ToFunction expected) {
    ToFunctionReader reused;
    try {
      reused = ToFunctionReader.borrow(bytes, new StringInterner());
    } catch (MalformedRequestException e) {
      reused = null;
    }
    try {
      assertEquals(expected == null, reused == null, "the reused reader refused or accepted alone");
      if (reused != null) {
        compare(expected, reused);
      }
    } finally {
      if (reused != null) {
        reused.release();
      }
    }
  }

  static void compare(ToFunction expected, ToFunctionReader actual) {
    assertEquals(expected.hasInvocation(), actual.hasBatch, "has a batch");
    ToFunction.InvocationBatchRequest batch = expected.getInvocation();
    if (batch.hasTarget()) {
      assertAddress(batch.getTarget(), actual.target);
    } else {
      assertNull(actual.target, "no target");
    }
    // States named "" are not kept: no function declares one.
    java.util.List<ToFunction.PersistedValue> named =
        batch.getStateList().stream().filter(state -> !state.getStateName().isEmpty()).toList();
    assertEquals(named.size(), actual.stateCount, "states");
    for (int i = 0; i < actual.stateCount; i++) {
      ToFunction.PersistedValue state = named.get(i);
      assertEquals(state.getStateName(), actual.stateName(i), "state name " + i);
      // The handler matches names in place, without decoding them.
      assertTrue(actual.stateNamed(i, state.getStateName()), "state " + i + " named in place");
      assertTrue(!actual.stateNamed(i, state.getStateName() + "_"), "state " + i + " misnamed");
      TypedValue value = actual.stateValue(i);
      if (!state.hasStateValue() || !state.getStateValue().getHasValue()) {
        assertNull(value, "state " + i + " has no value");
      } else {
        assertEquals(state.getStateValue().getTypename(), value.typeName(), "state type " + i);
        assertArrayEquals(state.getStateValue().getValue().toByteArray(), value.value());
      }
    }
    assertEquals(batch.getInvocationsCount(), actual.invocationCount, "invocations");
    // Invocations are kept up to the first the handler refuses to run, which is the last kept.
    int kept = actual.keptInvocationCount;
    assertEquals(Math.min(batch.getInvocationsCount(), firstRefused(batch) + 1), kept, "kept");
    for (int i = 0; i < kept; i++) {
      ToFunction.Invocation invocation = batch.getInvocations(i);
      Address caller = invocation.getCaller();
      // An all-empty caller is none, as the SDK's handler reads it (a message from an ingress).
      if (invocation.hasCaller()
          && !(caller.getNamespace().isEmpty()
              && caller.getType().isEmpty()
              && caller.getId().isEmpty())) {
        assertAddress(caller, actual.caller(i));
      } else {
        assertNull(actual.caller(i), "invocation " + i + " has no caller");
      }
      assertEquals(invocation.getArgument().getTypename(), actual.argumentType(i));
      assertArrayEquals(invocation.getArgument().getValue().toByteArray(), actual.argumentValue(i));
    }
  }

  /** The index of the first invocation the handler refuses to run, or the count if none. */
  private static int firstRefused(ToFunction.InvocationBatchRequest batch) {
    for (int i = 0; i < batch.getInvocationsCount(); i++) {
      ToFunction.Invocation invocation = batch.getInvocations(i);
      Address caller = invocation.getCaller();
      boolean hasCaller =
          invocation.hasCaller()
              && !(caller.getNamespace().isEmpty()
                  && caller.getType().isEmpty()
                  && caller.getId().isEmpty());
      boolean runnable =
          invocation.getArgument().getTypename().matches("(?s).+/[^/]+")
              && invocation.getArgument().getHasValue()
              && (!hasCaller
                  || !(caller.getNamespace().isEmpty()
                      || caller.getType().isEmpty()
                      || caller.getId().isEmpty()
                      || caller.getType().contains("/")));
      if (!runnable) {
        return i;
      }
    }
    return batch.getInvocationsCount();
  }

  private static void assertAddress(Address expected, String[] actual) {
    if (actual == null) {
      fail("the reader lost the address " + expected);
    }
    assertEquals(expected.getNamespace(), actual[0], "namespace");
    assertEquals(expected.getType(), actual[1], "type");
    assertEquals(expected.getId(), actual[2], "id");
  }
}
