package dev.statekit.function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.types.TypeName;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bad names, duplicate registrations and incomplete builders are refused with a way out. */
class ApiValidationTest {
  private static final TypeName GREETER = TypeName.of("example", "greeter");
  private static final StatefulFunction NOTHING = (context, message) -> {};

  @Test
  void typeNamesSplitAtTheLastSlash() {
    TypeName protobuf = TypeName.parse("type.googleapis.com/com.example.Event");
    assertEquals("type.googleapis.com", protobuf.namespace());
    assertEquals("com.example.Event", protobuf.name());
    assertEquals(TypeName.of("a/b", "c"), TypeName.parse("a/b/c"));
    assertEquals("example/greeter", GREETER.toString());
  }

  @Test
  void badTypeNamesAreRefused() {
    for (String bad : List.of("greeter", "/greeter", "example/", "")) {
      var e = assertThrows(IllegalArgumentException.class, () -> TypeName.parse(bad));
      assertTrue(e.getMessage().contains("namespace/name"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> TypeName.of("", "x"));
    var slash = assertThrows(IllegalArgumentException.class, () -> TypeName.of("a", "b/c"));
    assertTrue(slash.getMessage().contains("namespace"), slash.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Address.of(GREETER, ""));
  }

  @Test
  void addressesAreValues() {
    assertEquals(Address.of(GREETER, "Ada"), Address.of(TypeName.parse("example/greeter"), "Ada"));
    assertEquals("example/greeter/Ada", Address.of(GREETER, "Ada").toString());
  }

  @Test
  void stateNamesMustBeIdentifiers() {
    assertEquals("seen_count", ValueSpec.named("seen_count").withIntType().name());
    for (String bad : List.of("", "my-state", "1st", "a b", "x".repeat(201))) {
      var e =
          assertThrows(IllegalArgumentException.class, () -> ValueSpec.named(bad).withIntType());
      assertTrue(e.getMessage().contains("not a valid state name"), e.getMessage());
    }
  }

  @Test
  void expirationsNeedADuration() {
    ValueSpec<Integer> spec =
        ValueSpec.named("seen").withIntType().thatExpireAfterCall(Duration.ofDays(1));
    assertEquals(Expiration.Mode.AFTER_CALL, spec.expiration().mode());
    assertEquals(Duration.ofDays(1), spec.expiration().duration());
    assertEquals(
        Expiration.Mode.AFTER_WRITE,
        spec.thatExpireAfterWrite(Duration.ofSeconds(1)).expiration().mode());
    assertEquals(Expiration.none(), ValueSpec.named("x").withLongType().expiration());
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ValueSpec.named("x").withIntType().thatExpireAfterWrite(Duration.ZERO));
    assertTrue(e.getMessage().contains("Expiration.none()"), e.getMessage());
  }

  @Test
  void aStateNameDeclaredTwiceIsRefused() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                StatefulFunctions.builder()
                    .withFunction(
                        GREETER,
                        NOTHING,
                        ValueSpec.named("seen").withIntType(),
                        ValueSpec.named("seen").withLongType()));
    assertTrue(e.getMessage().contains("'seen' twice"), e.getMessage());
  }

  @Test
  void aFunctionTypeRegisteredTwiceIsRefused() {
    StatefulFunctions.Builder builder = StatefulFunctions.builder().withFunction(GREETER, NOTHING);

    var e =
        assertThrows(IllegalArgumentException.class, () -> builder.withFunction(GREETER, NOTHING));

    assertTrue(e.getMessage().contains("example/greeter is registered twice"), e.getMessage());
  }

  @Test
  void incompleteSpecsAndRegistriesAreRefused() {
    var noCode =
        assertThrows(
            IllegalStateException.class, () -> StatefulFunctionSpec.builder(GREETER).build());
    assertTrue(noCode.getMessage().contains("withFunction"), noCode.getMessage());
    var empty =
        assertThrows(IllegalStateException.class, () -> StatefulFunctions.builder().build());
    assertTrue(empty.getMessage().contains("at least one"), empty.getMessage());
  }

  @Test
  void aSupplierGivesEachBatchItsOwnInstanceAndAnInstanceIsShared() {
    StatefulFunctionSpec perBatch =
        StatefulFunctionSpec.builder(GREETER)
            .withSupplier(
                () ->
                    new StatefulFunction() {
                      @Override
                      public void apply(Context context, Message message) {}
                    })
            .build();
    assertTrue(perBatch.newBatchFunction() != perBatch.newBatchFunction());
    StatefulFunctionSpec shared =
        StatefulFunctionSpec.builder(GREETER).withFunction(NOTHING).build();
    assertTrue(shared.newBatchFunction() == shared.newBatchFunction());
  }

  @Test
  void messagesAndRecordsNeedTheirParts() {
    var noValue =
        assertThrows(
            IllegalStateException.class, () -> MessageBuilder.forAddress(GREETER, "a").build());
    assertTrue(noValue.getMessage().contains("withValue"), noValue.getMessage());
    assertThrows(
        IllegalStateException.class,
        () -> KafkaEgressMessage.forEgress(GREETER).withUtf8Value("v").build());
    assertThrows(
        IllegalStateException.class,
        () -> KinesisEgressMessage.forEgress(GREETER).withStream("s").withUtf8Value("v").build());
    var delay =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                DelayedMessage.of(
                    Duration.ofMillis(-1),
                    MessageBuilder.forAddress(GREETER, "a").withValue(1).build(),
                    null));
    assertTrue(delay.getMessage().contains("zero or more"), delay.getMessage());
    assertThrows(IllegalArgumentException.class, () -> DelayedMessage.requireToken(""));
  }

  @Test
  void messagesReadTheirValueByType() {
    Message message = MessageBuilder.forAddress(GREETER, "a").withValue(42).build();

    assertTrue(message.isInt());
    assertEquals(42, message.asInt());
    assertEquals(TypeName.parse("io.statefun.types/int"), message.valueTypeName());
    var e = assertThrows(IllegalStateException.class, message::asUtf8String);
    assertTrue(e.getMessage().contains("io.statefun.types/int"), e.getMessage());
    assertEquals(message, MessageBuilder.forAddress(GREETER, "a").withValue(42).build());
    assertEquals(1.5d, MessageBuilder.forAddress(GREETER, "a").withValue(1.5d).build().asDouble());
    assertTrue(MessageBuilder.forAddress(GREETER, "a").withValue(true).build().asBoolean());
  }
}
