package dev.statekit.egress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.statekit.aws.dynamodb.DynamoDbTableSink;
import dev.statekit.function.Address;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Limit: DynamoDB keeps strings as UTF-8, and a string holding half a character (an unpaired
 * surrogate, as cutting a Java string inside an emoji leaves) has none: the request that carries
 * one is refused whole, on every try (Dynoxide: SerializationException, HTTP 400; the runtime's
 * AddressLimit refuses such addresses for the same reason). A batch pipeline's output key is what
 * the user's key function returns, and an in-process pipeline's record id and source name the
 * stream's key as it is, so an egress record may hold one.
 *
 * <p>EgressSink's contract: "A record refused for what it holds is named
 * (EgressException#refusing), as check would refuse it". DynamoDbTableSink.check let such a record
 * through, and deliver failed the whole call with an INVALID_REQUEST naming no record: every record
 * beside it was refused on that try, and a caller that sets refused records aside by id (a
 * pipeline's refusedOutputsTo) could not, so its batch failed on every try.
 *
 * <p>Schedule (Dynoxide): deliver a valid record and one whose key (then: whose id) ends in half a
 * character. Expected: an EgressException naming the second, nothing written, and check refusing
 * it.
 */
@ExtendWith(RealServers.class)
class TableSinkHalfCharacterIT {
  private static final Address SOURCE = Address.of(TypeName.of("app", "fn"), "src");
  private static final byte[] VALUE = "x".getBytes(StandardCharsets.UTF_8);

  @Test
  void aRecordWhoseKeyHoldsHalfACharacterIsRefusedByItsId(
      DynamoDbClient dynamoDb, TestTable table) {
    TypeName egress = TypeName.of("app", "keyed");
    EgressRecord bad =
        EgressRecord.builder("bad", egress, SOURCE, "app/raw", VALUE).key("cut-\uD83D").build();
    refusedAlone(dynamoDb, table, bad);
  }

  @Test
  void aRecordWhoseIdHoldsHalfACharacterIsRefusedByItsId(DynamoDbClient dynamoDb, TestTable table) {
    TypeName egress = TypeName.of("app", "ids");
    EgressRecord bad =
        EgressRecord.builder("out/0@1/cut-\uD83D/0", egress, SOURCE, "app/raw", VALUE).build();
    refusedAlone(dynamoDb, table, bad);
  }

  private static void refusedAlone(DynamoDbClient dynamoDb, TestTable table, EgressRecord bad) {
    DynamoDbTableSink sink = DynamoDbTableSink.onApplicationTable(dynamoDb, table.name());
    EgressRecord good =
        EgressRecord.builder("good", bad.egress(), SOURCE, "app/raw", VALUE).build();

    EgressException refused =
        assertThrows(EgressException.class, () -> sink.deliver(List.of(good, bad)));

    assertEquals(
        Optional.of(bad.id()),
        refused.refusedRecordId(),
        "the record DynamoDB can never take is named; the sink said: " + refused.getMessage());
    assertEquals(EgressException.Reason.INVALID_REQUEST, refused.reason());
    assertEquals(
        Optional.of(bad.id()),
        assertThrows(EgressException.class, () -> sink.check(bad)).refusedRecordId(),
        "check refuses it as deliver does");
    assertEquals(0, items(dynamoDb, table, bad.egress()), "nothing written");
    sink.deliver(List.of(good));
    assertEquals(1, items(dynamoDb, table, bad.egress()), "the good one alone");
  }

  /** The items of {@code egress} (the tests share the table). */
  private static int items(DynamoDbClient dynamoDb, TestTable table, TypeName egress) {
    return dynamoDb
        .query(
            b ->
                b.tableName(table.name())
                    .keyConditionExpression("pk = :pk")
                    .expressionAttributeValues(
                        Map.of(":pk", AttributeValue.fromS("egress#" + egress.asString()))))
        .count();
  }
}
