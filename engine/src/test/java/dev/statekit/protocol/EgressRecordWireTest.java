package dev.statekit.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import dev.statekit.function.EgressMessage;
import dev.statekit.function.KafkaEgressMessage;
import dev.statekit.function.KinesisEgressMessage;
import dev.statekit.function.spi.Payloads;
import dev.statekit.protocol.internal.wire.KafkaProducerRecord;
import dev.statekit.protocol.internal.wire.KinesisEgressRecord;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The function API writes StateFun's egress records without generated classes: its bytes must be
 * the generated classes' bytes, for any key, value length (one- to three-byte length prefixes) and
 * text, and the engine must read them back.
 */
class EgressRecordWireTest {
  private static final TypeName EGRESS = TypeName.of("test", "out");

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 127, 128, 16_383, 16_384, 300_000})
  void kafkaRecordsAreTheGeneratedBytes(int valueLength) {
    for (String key : new String[] {"", "k", "schlüssel-ß-✓"}) {
      byte[] value = value(valueLength);
      KafkaEgressMessage builder =
          KafkaEgressMessage.forEgress(EGRESS).withTopic("orders-ü").withValue(value);
      if (!key.isEmpty()) {
        builder.withUtf8Key(key);
      }
      byte[] written = bytes(builder.build());
      byte[] generated =
          KafkaProducerRecord.newBuilder()
              .setTopic("orders-ü")
              .setKey(key)
              .setValueBytes(ByteString.copyFrom(value))
              .build()
              .toByteArray();
      assertArrayEquals(generated, written, "key '" + key + "', " + valueLength + " bytes");
      EgressRecords.Kafka read = EgressRecords.kafka(written);
      assertEquals("orders-ü", read.topic());
      assertEquals(key.isEmpty() ? null : key, read.key());
      assertArrayEquals(value, read.value());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 127, 128, 16_384})
  void kinesisRecordsAreTheGeneratedBytes(int valueLength) {
    for (String hashKey : new String[] {"", "340282366920938463463374607431768211455"}) {
      byte[] value = value(valueLength);
      KinesisEgressMessage builder =
          KinesisEgressMessage.forEgress(EGRESS)
              .withStream("clicks")
              .withUtf8PartitionKey("user-✓")
              .withValue(value);
      if (!hashKey.isEmpty()) {
        builder.withUtf8ExplicitHashKey(hashKey);
      }
      byte[] written = bytes(builder.build());
      byte[] generated =
          KinesisEgressRecord.newBuilder()
              .setStream("clicks")
              .setPartitionKey("user-✓")
              .setExplicitHashKey(hashKey)
              .setValueBytes(ByteString.copyFrom(value))
              .build()
              .toByteArray();
      assertArrayEquals(generated, written, "hash key '" + hashKey + "', " + valueLength);
      EgressRecords.Kinesis read = EgressRecords.kinesis(written);
      assertEquals("clicks", read.stream());
      assertEquals("user-✓", read.partitionKey());
      if (hashKey.isEmpty()) {
        assertNull(read.explicitHashKey());
      } else {
        assertEquals(hashKey, read.explicitHashKey());
      }
      assertArrayEquals(value, read.value());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"\u0008", "\u0012\u0005ab"})
  void aRecordThatIsNoneIsRefused(String garbage) {
    byte[] bytes = garbage.getBytes(StandardCharsets.ISO_8859_1);
    assertThrows(IllegalArgumentException.class, () -> EgressRecords.kafka(bytes));
    assertThrows(IllegalArgumentException.class, () -> EgressRecords.kinesis(bytes));
  }

  private static byte[] bytes(EgressMessage message) {
    return Payloads.access().bytes(message);
  }

  private static byte[] value(int length) {
    byte[] value = new byte[length];
    new Random(length).nextBytes(value);
    return value;
  }
}
