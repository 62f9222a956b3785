package dev.statekit.stream.lambda.dynamodb;

import dev.statekit.aws.ApplicationTable;
import dev.statekit.stream.lambda.BatchStore.KeyWrite;
import dev.statekit.stream.state.dynamodb.Items;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementRequest;

/**
 * A batch's key writes as PartiQL statements, 25 to a {@code BatchExecuteStatement}: each statement
 * keeps its own condition (a new key is an INSERT, which fails if the item exists; a known key an
 * UPDATE on the version read), so the writes stay fenced one by one while a request carries 25 of
 * them, each billed like a PutItem of the same item (no transaction). Two statement texts serve
 * every write: an absent state or expiry is written as a NULL attribute, which reads as absent and
 * which DynamoDB's TTL ignores, so no statement needs a REMOVE clause.
 */
final class KeyStatements {
  /** DynamoDB's limit of statements per BatchExecuteStatement. */
  static final int PER_REQUEST = 25;

  /** Bytes of state a request carries at most, well under DynamoDB's request size limit. */
  static final int MAX_REQUEST_BYTES = 4 * 1024 * 1024;

  private static final AttributeValue NULL = AttributeValue.fromNul(true);

  private final String insert;
  private final String update;

  KeyStatements(String table) {
    String quoted = "\"" + table + "\"";
    String ttl = ApplicationTable.TTL_ATTRIBUTE;
    this.insert =
        "INSERT INTO "
            + quoted
            + " VALUE {'pk': ?, 'sk': ?, 'v': ?, 'st': ?, 'bk': ?, '"
            + ttl
            + "': ?}";
    this.update =
        "UPDATE "
            + quoted
            + " SET \"v\" = ?, \"st\" = ?, \"bk\" = ?, \""
            + ttl
            + "\" = ? WHERE \"pk\" = ? AND \"sk\" = ? AND \"v\" = ?";
  }

  /** One write's statement; {@code pk} is the key item's partition key. */
  BatchStatementRequest statement(String pk, KeyWrite write) {
    AttributeValue partition = AttributeValue.fromS(pk);
    AttributeValue sort = AttributeValue.fromS(DynamoDbBatchStore.KEY_SORT_KEY);
    AttributeValue version = Items.number(write.expectedVersion() + 1);
    AttributeValue state = orNull(write.state());
    AttributeValue bookkeeping = orNull(write.bookkeeping());
    AttributeValue expires = write.expiresAt() > 0 ? Items.number(write.expiresAt()) : NULL;
    if (write.expectedVersion() == 0) {
      return BatchStatementRequest.builder()
          .statement(insert)
          .parameters(partition, sort, version, state, bookkeeping, expires)
          .build();
    }
    return BatchStatementRequest.builder()
        .statement(update)
        .parameters(
            version,
            state,
            bookkeeping,
            expires,
            partition,
            sort,
            Items.number(write.expectedVersion()))
        .build();
  }

  /** The writes cut into requests of at most 25 statements and {@link #MAX_REQUEST_BYTES}. */
  static List<List<KeyWrite>> requests(List<KeyWrite> writes) {
    List<List<KeyWrite>> requests = new ArrayList<>();
    List<KeyWrite> current = new ArrayList<>();
    long bytes = 0;
    for (KeyWrite write : writes) {
      long size = size(write);
      if (current.size() == PER_REQUEST
          || (!current.isEmpty() && bytes + size > MAX_REQUEST_BYTES)) {
        requests.add(current);
        current = new ArrayList<>();
        bytes = 0;
      }
      current.add(write);
      bytes += size;
    }
    if (!current.isEmpty()) {
      requests.add(current);
    }
    return requests;
  }

  private static long size(KeyWrite write) {
    return (write.state() == null ? 0 : write.state().length)
        + (write.bookkeeping() == null ? 0 : write.bookkeeping().length);
  }

  private static AttributeValue orNull(byte[] bytes) {
    return bytes == null ? NULL : Items.bytes(bytes);
  }
}
