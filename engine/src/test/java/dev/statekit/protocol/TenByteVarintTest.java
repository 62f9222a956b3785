package dev.statekit.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.HexFormat;
import org.apache.flink.statefun.sdk.reqreply.generated.ToFunction;
import org.junit.jupiter.api.Test;

/**
 * A varint may take ten bytes (padded with continuation bytes, legal protobuf). protobuf-java, and
 * so statefun-sdk-java, reads bit 63 of a ten-byte varint as set whatever the tenth byte holds: a
 * {@code has_value} written {@code 80 80 80 80 80 80 80 80 80 00} is true to them, and must be to
 * the reader too, or a state the SDK sees with a value is empty to StateKit.
 */
class TenByteVarintTest {
  private static final HexFormat HEX = HexFormat.of();

  private final ToFunctionReaderFuzzTest peer = new ToFunctionReaderFuzzTest();

  @Test
  void aTenByteHasValueIsReadAsProtobufJavaReadsIt() throws Exception {
    for (String tenth : new String[] {"00", "01", "02", "7e", "7f"}) {
      for (String nine :
          new String[] {"808080808080808080", "818080808080808080", "ffffffffffffffffff"}) {
        // state "s" with value {typename "t/t", has_value <ten bytes>, value "v"}
        String typedValue = "0a03742f74" + "10" + nine + tenth + "1a0176";
        String state = "0a0173" + "12" + len(typedValue) + typedValue;
        String target = "0a016e1201741a0169";
        String invocation = "12" + "09" + "0a03742f74" + "1001" + "1a00";
        String batch =
            "0a"
                + len(target)
                + target
                + "12"
                + len(state)
                + state
                + "1a"
                + len(invocation)
                + invocation;
        byte[] bytes = HEX.parseHex("a206" + len(batch) + batch);
        // The SDK's generated classes read the state's value as present.
        assertEquals(
            true,
            ToFunction.parseFrom(bytes).getInvocation().getState(0).getStateValue().getHasValue(),
            "the SDK reads has_value " + nine + tenth);
        ToFunctionReader reader = ToFunctionReader.read(bytes, new StringInterner());
        assertNotNull(
            reader.stateValue(0), "StateKit reads has_value " + nine + tenth + " as false");
        peer.agreesWithProtobufJava(bytes);
      }
    }
  }

  private static String len(String hex) {
    int length = hex.length() / 2;
    if (length >= 128) {
      throw new IllegalArgumentException("keep parts short");
    }
    return String.format("%02x", length);
  }
}
