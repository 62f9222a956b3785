package dev.statekit.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PayloadKindTest {
  @Test
  void aToFunctionStartsWithTheTagOfField100() {
    byte[] request = PeerWire.request("a", "b", "c").message(PeerWire.string("x")).bytes();

    assertEquals(PayloadKind.TO_FUNCTION, PayloadKind.of(request));
  }

  @Test
  void jsonIsToldByItsFirstSignificantByte() {
    assertEquals(PayloadKind.JSON, PayloadKind.of(utf8("{\"a\":1}")));
    assertEquals(PayloadKind.JSON, PayloadKind.of(utf8(" \n\t[1]")));
    assertEquals(PayloadKind.JSON, PayloadKind.of(utf8("\uFEFF{}")));
  }

  @Test
  void anythingElseIsUnknown() {
    assertEquals(PayloadKind.UNKNOWN, PayloadKind.of(new byte[0]));
    assertEquals(PayloadKind.UNKNOWN, PayloadKind.of(utf8("hello")));
    assertEquals(PayloadKind.UNKNOWN, PayloadKind.of(new byte[] {(byte) 0xA2}));
    assertEquals(PayloadKind.UNKNOWN, PayloadKind.of(utf8("   ")));
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
