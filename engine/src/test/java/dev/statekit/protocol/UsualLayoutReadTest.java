package dev.statekit.protocol;

import static dev.statekit.protocol.PeerWire.request;
import static dev.statekit.protocol.PeerWire.string;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.statefun.sdk.reqreply.generated.ToFunction;
import org.apache.flink.statefun.sdk.reqreply.generated.TypedValue;
import org.apache.flink.statefun.sdk.shaded.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;

/**
 * The reader takes a typed value laid out as SDKs write it (type name, has_value, value, one-byte
 * lengths) in one go: on that layout, at its limits, and on every small change to it (each byte set
 * to the values that make or break the layout, each length cut short), it reads what protobuf-java
 * reads, or refuses what protobuf-java refuses.
 */
class UsualLayoutReadTest {
  private static final byte[] CHANGES = {
    0, 1, 2, 8, 10, 16, 18, 26, 0x7F, (byte) 0x80, (byte) 0xFF
  };

  private final ToFunctionReaderFuzzTest peer = new ToFunctionReaderFuzzTest();

  @Test
  void everySmallChangeToTheUsualLayoutIsReadAsProtobufReadsIt() {
    byte[] usual =
        request("test", "counter", "a")
            .state("seen", PeerWire.integer(7))
            .message(string("hello"))
            .message(string("again"))
            .bytes();
    peer.agreesWithProtobufJava(usual);
    for (int i = 0; i < usual.length; i++) {
      for (byte change : CHANGES) {
        byte[] changed = usual.clone();
        changed[i] = change;
        peer.agreesWithProtobufJava(changed);
        peer.agreesWithProtobufJava(changed((byte) (usual[i] + 1), usual, i));
        peer.agreesWithProtobufJava(changed((byte) (usual[i] - 1), usual, i));
      }
      peer.agreesWithProtobufJava(Arrays.copyOf(usual, i));
    }
  }

  @Test
  void lengthsAtTheEdgeOfOneByteAndOtherLayoutsAreReadAsProtobufReadsThem() {
    for (int length : List.of(0, 1, 120, 125, 126, 127, 128, 129, 200)) {
      String text = "x".repeat(length);
      peer.agreesWithProtobufJava(call(typed("t/" + text, true, text)));
      peer.agreesWithProtobufJava(call(typed(("n".repeat(length)) + "/t", true, "v")));
    }
    // No has_value, has_value false, no type name, no value: each a layout of its own.
    peer.agreesWithProtobufJava(call(typed("t/t", false, "v")));
    peer.agreesWithProtobufJava(call(TypedValue.newBuilder().setHasValue(true).build()));
    peer.agreesWithProtobufJava(
        call(TypedValue.newBuilder().setTypename("t/t").setHasValue(true).build()));
    peer.agreesWithProtobufJava(
        call(
            TypedValue.newBuilder()
                .setTypename("t/t")
                .setValue(ByteString.copyFromUtf8("v"))
                .build()));
  }

  @Test
  void aTypedValueSentTwiceMergesAsProtobufMergesIt() throws Exception {
    byte[] usual = argument(typed("a/usual", true, "first"));
    byte[] other = argument(TypedValue.newBuilder().setTypename("b/other").build());
    byte[] trailing = argument(typed("c/trailing", true, "v"));
    trailing = concat(trailing, new byte[] {0x20, 0x05}); // an unknown varint field after it
    for (byte[][] pair :
        List.of(
            new byte[][] {usual, other},
            new byte[][] {other, usual},
            new byte[][] {usual, trailing},
            new byte[][] {trailing, usual})) {
      peer.agreesWithProtobufJava(handWritten(concat(pair[0], pair[1])));
    }
  }

  private static TypedValue typed(String typeName, boolean hasValue, String value) {
    return TypedValue.newBuilder()
        .setTypename(typeName)
        .setHasValue(hasValue)
        .setValue(ByteString.copyFromUtf8(value))
        .build();
  }

  private static byte[] call(TypedValue argument) {
    return request("test", "counter", "a").state("seen").message(argument).bytes();
  }

  /** An invocation's field 2 (its argument) with its tag and length. */
  private static byte[] argument(TypedValue value) {
    return ToFunction.Invocation.newBuilder().setArgument(value).build().toByteArray();
  }

  /** A request of one invocation whose body is {@code invocation}, written by hand. */
  private static byte[] handWritten(byte[] invocation) throws Exception {
    ByteArrayOutputStream batch = new ByteArrayOutputStream();
    batch.write(
        ToFunction.InvocationBatchRequest.newBuilder()
            .setTarget(PeerWire.address("test", "counter", "a"))
            .build()
            .toByteArray());
    batch.write(0x1A);
    batch.write(invocation.length);
    batch.write(invocation);
    ByteArrayOutputStream whole = new ByteArrayOutputStream();
    whole.write(new byte[] {(byte) 0xA2, 0x06});
    // Both lengths are under 128 here, so each is one byte.
    whole.write(batch.size());
    batch.writeTo(whole);
    return whole.toByteArray();
  }

  private static byte[] changed(byte value, byte[] bytes, int at) {
    byte[] changed = bytes.clone();
    changed[at] = value;
    return changed;
  }

  private static byte[] concat(byte[] first, byte[] second) {
    byte[] both = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    return both;
  }
}
