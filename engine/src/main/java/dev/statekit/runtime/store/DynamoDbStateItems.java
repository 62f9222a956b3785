package dev.statekit.runtime.store;

import static dev.statekit.runtime.store.TableKeys.PARTITION_KEY;
import static dev.statekit.runtime.store.TableKeys.SORT_KEY;
import static dev.statekit.runtime.store.TableKeys.TTL_ATTRIBUTE;

import dev.statekit.function.Address;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An address's state as one DynamoDB item: {@code pk = fn#<namespace>/<type>/<id>}, {@code sk =
 * state}; {@code v} the version; {@code vals} the values ({@code {name: {t: type name, b: bytes, x:
 * expiry ms}}}); {@code tok} the pending tokens ({@code {token: timer key}}); {@code rt} the
 * runtime's bookkeeping; {@code obv} / {@code obi} the outbox's version and where it was
 * registered; {@code expires_at} the TTL; {@code xe}, while tokens are pending, the TTL the item
 * takes once they are all freed ({@link AddressState#expiresWithoutTokensSeconds()}). Empty
 * attributes are left out.
 */
public final class DynamoDbStateItems {
  static final String PREFIX = "fn#";

  /** The most UTF-8 bytes of an address's text: DynamoDB's partition keys hold 2,048. */
  public static final int MAX_ADDRESS_BYTES = 2_048 - PREFIX.length();

  public static final String SORT = "state";
  static final String VERSION = "v";
  static final String VALUES = "vals";
  public static final String TOKENS = "tok";
  static final String RUNTIME_DATA = "rt";
  static final String OUTBOX_VERSION = "obv";
  static final String OUTBOX_KEY = "obi";
  public static final String EXPIRES_WITHOUT_TOKENS = "xe";

  private DynamoDbStateItems() {}

  public static Map<String, AttributeValue> key(Address address) {
    return Map.of(
        PARTITION_KEY, AttributeValue.fromS(partitionKey(address)),
        SORT_KEY, AttributeValue.fromS(SORT));
  }

  public static String partitionKey(Address address) {
    return PREFIX + address;
  }

  public static Map<String, AttributeValue> toItem(AddressState state) {
    Map<String, AttributeValue> item = new HashMap<>(key(state.address()));
    item.put(VERSION, number(state.version()));
    if (!state.values().isEmpty()) {
      Map<String, AttributeValue> values = new LinkedHashMap<>();
      state.values().forEach((name, value) -> values.put(name, value(value)));
      item.put(VALUES, AttributeValue.fromM(values));
    }
    if (!state.pendingTokens().isEmpty()) {
      Map<String, AttributeValue> tokens = new LinkedHashMap<>();
      state.pendingTokens().forEach((token, key) -> tokens.put(token, timerKey(key)));
      item.put(TOKENS, AttributeValue.fromM(tokens));
    }
    if (state.runtimeData().length > 0) {
      item.put(
          RUNTIME_DATA, AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(state.runtimeData())));
    }
    if (state.outboxVersion() > 0) {
      item.put(OUTBOX_VERSION, number(state.outboxVersion()));
      if (state.outboxKey() != null) {
        item.put(OUTBOX_KEY, AttributeValue.fromS(state.outboxKey().asString()));
      }
    }
    if (state.expiresAtSeconds() > 0) {
      item.put(TTL_ATTRIBUTE, number(state.expiresAtSeconds()));
    }
    if (!state.pendingTokens().isEmpty() && state.expiresWithoutTokensSeconds() > 0) {
      item.put(EXPIRES_WITHOUT_TOKENS, number(state.expiresWithoutTokensSeconds()));
    }
    return item;
  }

  public static AddressState fromItem(Address address, Map<String, AttributeValue> item) {
    if (item == null || item.isEmpty()) {
      return AddressState.absent(address);
    }
    Map<String, StoredValue> values = new LinkedHashMap<>();
    AttributeValue storedValues = item.get(VALUES);
    if (storedValues != null) {
      storedValues.m().forEach((name, value) -> values.put(name, storedValue(value)));
    }
    Map<String, TimerKey> tokens = new LinkedHashMap<>();
    AttributeValue storedTokens = item.get(TOKENS);
    if (storedTokens != null) {
      storedTokens.m().forEach((token, key) -> tokens.put(token, TimerKey.parse(key.s())));
    }
    AttributeValue runtimeData = item.get(RUNTIME_DATA);
    long outboxVersion = longOf(item.get(OUTBOX_VERSION));
    AttributeValue outboxKey = item.get(OUTBOX_KEY);
    return new AddressState(
        address,
        longOf(item.get(VERSION)),
        values,
        tokens,
        runtimeData == null ? new byte[0] : runtimeData.b().asByteArrayUnsafe(),
        outboxVersion,
        outboxVersion > 0 && outboxKey != null ? OutboxKey.parse(outboxKey.s()) : null,
        longOf(item.get(TTL_ATTRIBUTE)),
        tokens.isEmpty()
            ? longOf(item.get(TTL_ATTRIBUTE))
            : longOf(item.get(EXPIRES_WITHOUT_TOKENS)));
  }

  public static long sizeOf(AddressState state) {
    return DynamoDbItemSize.of(toItem(state));
  }

  public static AttributeValue timerKey(TimerKey key) {
    return AttributeValue.fromS(key.asString());
  }

  public static AttributeValue number(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }

  private static AttributeValue value(StoredValue value) {
    Map<String, AttributeValue> fields = new HashMap<>(4);
    fields.put("t", AttributeValue.fromS(value.typeName()));
    fields.put("b", AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(value.bytes())));
    if (value.expiresAtMillis() > 0) {
      fields.put("x", number(value.expiresAtMillis()));
    }
    return AttributeValue.fromM(fields);
  }

  private static StoredValue storedValue(AttributeValue value) {
    Map<String, AttributeValue> fields = value.m();
    return new StoredValue(
        fields.get("t").s(), fields.get("b").b().asByteArrayUnsafe(), longOf(fields.get("x")));
  }

  private static long longOf(AttributeValue number) {
    return number == null || number.n() == null ? 0 : Long.parseLong(number.n());
  }
}
