package dev.statekit.runtime.store;

import static dev.statekit.runtime.store.TableKeys.PARTITION_KEY;
import static dev.statekit.runtime.store.TableKeys.SORT_KEY;
import static dev.statekit.runtime.store.TableKeys.TTL_ATTRIBUTE;

import dev.statekit.function.Address;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A mark that left an address's item, as one DynamoDB item beside it: {@code pk} the address's
 * partition key, {@code sk = mark#<id>}, {@code p} its position, {@code expires_at} when TTL may
 * delete it.
 */
public final class DynamoDbMarkItems {
  static final String PREFIX = "mark#";
  public static final String POSITION = "p";

  private DynamoDbMarkItems() {}

  public static Map<String, AttributeValue> key(Address address, String id) {
    return Map.of(
        PARTITION_KEY, AttributeValue.fromS(DynamoDbStateItems.partitionKey(address)),
        SORT_KEY, AttributeValue.fromS(PREFIX + id));
  }

  public static SpilledMark fromItem(Map<String, AttributeValue> item) {
    AttributeValue expires = item.get(TTL_ATTRIBUTE);
    return new SpilledMark(
        item.get(SORT_KEY).s().substring(PREFIX.length()),
        item.get(POSITION).s(),
        expires == null ? 0 : Long.parseLong(expires.n()),
        true);
  }
}
