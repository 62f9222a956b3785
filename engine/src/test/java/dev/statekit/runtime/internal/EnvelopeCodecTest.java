package dev.statekit.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.AddressResolver;
import dev.statekit.bus.EnvelopeCodec;
import dev.statekit.bus.InvalidEnvelopeException;
import dev.statekit.function.Address;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.runtime.Ingress;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EnvelopeCodecTest {
  private static final TypeName GREETER = TypeName.of("example", "greeter");
  private final AddressResolver targets =
      new AddressResolver(StatefulFunctions.builder().withFunction(GREETER, (c, m) -> {}).build());

  @Test
  void builtInValuesArePlainJson() {
    EnvelopeCodec.Envelope text = parse("\"io.statefun.types/string\"", "\"hi\"");
    EnvelopeCodec.Envelope number = parse("\"io.statefun.types/long\"", "12");
    EnvelopeCodec.Envelope flag = parse("\"io.statefun.types/bool\"", "true");

    assertEquals("hi", Types.stringType().deserialize(text.value()));
    assertEquals(12L, Types.longType().deserialize(number.value()));
    assertEquals(true, Types.booleanType().deserialize(flag.value()));
    assertEquals(Address.of(GREETER, "ada"), text.target());
    assertNull(text.id());
  }

  @Test
  void otherValuesAreBase64OrJsonText() {
    EnvelopeCodec.Envelope bytes = parse("\"com.example/Blob\"", "\"AQID\"");
    EnvelopeCodec.Envelope json = parse("\"com.example/Order\"", "{\"id\": 7}");

    assertArrayEquals(new byte[] {1, 2, 3}, bytes.value());
    assertEquals("{\"id\":7}", new String(json.value(), StandardCharsets.UTF_8));
  }

  @Test
  void whatIngressWritesReadsBackTheSame() {
    var message = MessageBuilder.forAddress(GREETER, "ada").withValue(42).build();

    EnvelopeCodec.Envelope read =
        EnvelopeCodec.parse(EnvelopeCodec.tree(Ingress.envelope(message, "key-1")), targets);

    assertEquals(message.targetAddress(), read.target());
    assertEquals("io.statefun.types/int", read.typeName());
    assertArrayEquals(message.rawValue(), read.value());
    assertEquals("key-1", read.id());
    assertTrue(Ingress.envelope(message).contains("\"value\":42"), Ingress.envelope(message));
  }

  @Test
  void wrongValuesSayWhatWasExpected() {
    var wrongType =
        assertThrows(
            InvalidEnvelopeException.class, () -> parse("\"io.statefun.types/int\"", "\"five\""));
    var tooBig =
        assertThrows(
            InvalidEnvelopeException.class, () -> parse("\"io.statefun.types/int\"", "3000000000"));
    var badTypeName =
        assertThrows(InvalidEnvelopeException.class, () -> parse("\"nonamespace\"", "1"));
    var notAnObject =
        assertThrows(
            InvalidEnvelopeException.class,
            () -> EnvelopeCodec.parse(EnvelopeCodec.tree("[1]"), targets));

    assertTrue(wrongType.getMessage().contains("is not a io.statefun.types/int"));
    assertTrue(tooBig.getMessage().contains("3000000000"));
    assertTrue(badTypeName.getMessage().contains("'typename'"), badTypeName.getMessage());
    assertTrue(notAnObject.getMessage().contains("JSON object"), notAnObject.getMessage());
  }

  private EnvelopeCodec.Envelope parse(String typeName, String value) {
    return EnvelopeCodec.parse(
        EnvelopeCodec.tree(
            "{\"target\":\"example/greeter/ada\",\"typename\":"
                + typeName
                + ",\"value\":"
                + value
                + "}"),
        targets);
  }
}
