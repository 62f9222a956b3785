package dev.statekit.runtime.store;

/**
 * The key and TTL attributes of an application's single DynamoDB table, which every item family
 * shares ({@code template.yaml}'s {@code StateTable}). The AWS adapters create the table with these
 * ({@code dev.statekit.aws.ApplicationTable}); the engine lays its items out with them, so the
 * in-memory store sizes and orders items exactly as DynamoDB would.
 */
public final class TableKeys {
  /** The partition key attribute. */
  public static final String PARTITION_KEY = "pk";

  /** The sort key attribute. */
  public static final String SORT_KEY = "sk";

  /** The attribute DynamoDB's TTL deletes expired items by, in epoch seconds. */
  public static final String TTL_ATTRIBUTE = "expires_at";

  private TableKeys() {}
}
