package dev.statekit.aws.dynamodb;

import static dev.statekit.aws.ApplicationTable.PARTITION_KEY;
import static dev.statekit.aws.ApplicationTable.SORT_KEY;
import static dev.statekit.aws.ApplicationTable.TTL_ATTRIBUTE;

import dev.statekit.aws.RetryPolicy;
import dev.statekit.concurrent.ParallelCalls;
import dev.statekit.function.Address;
import dev.statekit.runtime.store.AddressState;
import dev.statekit.runtime.store.Commit;
import dev.statekit.runtime.store.CommitConflictException;
import dev.statekit.runtime.store.CommitShape;
import dev.statekit.runtime.store.DynamoDbItemSize;
import dev.statekit.runtime.store.DynamoDbMarkItems;
import dev.statekit.runtime.store.DynamoDbOutboxItems;
import dev.statekit.runtime.store.DynamoDbStateItems;
import dev.statekit.runtime.store.DynamoDbTimerItems;
import dev.statekit.runtime.store.FunctionStore;
import dev.statekit.runtime.store.LoadResult;
import dev.statekit.runtime.store.OutboxEntry;
import dev.statekit.runtime.store.OutboxKey;
import dev.statekit.runtime.store.OutboxTries;
import dev.statekit.runtime.store.SortedKeys;
import dev.statekit.runtime.store.SpilledMark;
import dev.statekit.runtime.store.StateTooLargeException;
import dev.statekit.runtime.store.StoreException;
import dev.statekit.runtime.store.StoreUnavailableException;
import dev.statekit.runtime.store.Timer;
import dev.statekit.runtime.store.TimerChange;
import dev.statekit.runtime.store.TimerKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The function store on one DynamoDB table shaped like {@link dev.statekit.aws.ApplicationTable}:
 * one item per address (see the README's "DynamoDB layout"), one item per timer, one per
 * registration of outboxes, one per mark that left its address's item. A batch's states are read
 * with BatchGetItem (eventually consistent, half the read cost); each address is committed with one
 * conditional PutItem, or, when timers change with it, one TransactWriteItems. Throttling and
 * server errors are retried with {@link RetryPolicy}.
 */
public final class DynamoDbFunctionStore implements FunctionStore {
  /** Addresses named in one update of an outbox registration: its expression is at most 4 KB. */
  private static final int ADDRESSES_PER_UPDATE = 60;

  private static final int BATCH_GET_LIMIT = 100;

  /**
   * DynamoDB's limit with a little room: our size rules may differ from the service's by a few
   * bytes.
   */
  private static final long MAX_STATE_BYTES = DynamoDbItemSize.DYNAMODB_ITEM_LIMIT - 1024;

  private final DynamoDbClient dynamoDb;
  private final String table;
  private final RetryPolicy retry;
  private final ParallelCalls parallel = new ParallelCalls(32);

  /** A store on {@code table}, retrying with {@link RetryPolicy#defaults()}. */
  public DynamoDbFunctionStore(DynamoDbClient dynamoDb, String table) {
    this(dynamoDb, table, RetryPolicy.defaults());
  }

  /** A store on {@code table}, retrying passing failures with {@code retry}. */
  public DynamoDbFunctionStore(DynamoDbClient dynamoDb, String table, RetryPolicy retry) {
    this.dynamoDb = Objects.requireNonNull(dynamoDb, "dynamoDb");
    this.table = Objects.requireNonNull(table, "table");
    this.retry = Objects.requireNonNull(retry, "retry");
    if (table.isBlank()) {
      throw new IllegalArgumentException("The table name is blank; pass the application's table");
    }
  }

  @Override
  public LoadResult load(Collection<Address> addresses, Collection<TimerKey> timers) {
    return read(addresses, timers, false);
  }

  @Override
  public LoadResult loadLatest(Collection<Address> addresses, Collection<TimerKey> timers) {
    return read(addresses, timers, true);
  }

  @Override
  public Map<Address, AddressState> loadLatest(Collection<Address> addresses) {
    return read(addresses, List.of(), true).states();
  }

  private LoadResult read(
      Collection<Address> addresses, Collection<TimerKey> timers, boolean consistent) {
    Map<String, Address> byKey = new HashMap<>();
    List<Map<String, AttributeValue>> keys = new ArrayList<>();
    for (Address address : new HashSet<>(addresses)) {
      byKey.put(DynamoDbStateItems.partitionKey(address), address);
      keys.add(DynamoDbStateItems.key(address));
    }
    Map<String, TimerKey> timerByKey = new HashMap<>();
    for (TimerKey timer : new HashSet<>(timers)) {
      Map<String, AttributeValue> key = DynamoDbTimerItems.key(timer);
      timerByKey.put(key.get(PARTITION_KEY).s() + "|" + key.get(SORT_KEY).s(), timer);
      keys.add(key);
    }
    Map<Address, AddressState> states = new HashMap<>();
    Set<TimerKey> existing = new HashSet<>();
    for (Map<String, AttributeValue> item : batchGet(keys, consistent)) {
      String pk = item.get(PARTITION_KEY).s();
      Address address = byKey.get(pk);
      if (address != null && DynamoDbStateItems.SORT.equals(item.get(SORT_KEY).s())) {
        states.put(address, DynamoDbStateItems.fromItem(address, item));
      } else {
        TimerKey timer = timerByKey.get(pk + "|" + item.get(SORT_KEY).s());
        if (timer != null) {
          existing.add(timer);
        }
      }
    }
    byKey.values().forEach(address -> states.putIfAbsent(address, AddressState.absent(address)));
    return new LoadResult(states, existing);
  }

  @Override
  public AddressState reload(Address address) {
    Map<String, AttributeValue> item =
        call(
            "read the state of " + address,
            () ->
                dynamoDb
                    .getItem(
                        b ->
                            b.tableName(table)
                                .key(DynamoDbStateItems.key(address))
                                .consistentRead(true))
                    .item());
    return DynamoDbStateItems.fromItem(address, item);
  }

  @Override
  public boolean timerExists(TimerKey key) {
    return call(
        "read timer " + key.asString(),
        () ->
            dynamoDb
                .getItem(
                    b ->
                        b.tableName(table)
                            .key(DynamoDbTimerItems.key(key))
                            .consistentRead(true)
                            .projectionExpression(PARTITION_KEY))
                .hasItem());
  }

  @Override
  public void commit(Commit commit) {
    AddressState state = commit.state();
    Map<String, AttributeValue> item = DynamoDbStateItems.toItem(state);
    long size = DynamoDbItemSize.of(item);
    if (size > MAX_STATE_BYTES) {
      throw new StateTooLargeException(state.address().toString(), size, MAX_STATE_BYTES);
    }
    CommitShape.check(commit);
    boolean creates = commit.expectedVersion() == 0;
    String condition = creates ? "attribute_not_exists(" + PARTITION_KEY + ")" : "v = :expected";
    Map<String, AttributeValue> values =
        creates ? null : Map.of(":expected", DynamoDbStateItems.number(commit.expectedVersion()));
    String what = "commit version " + state.version() + " of " + state.address();
    try {
      if (commit.timerChanges().isEmpty()) {
        call(
            what,
            () ->
                dynamoDb.putItem(
                    b ->
                        b.tableName(table)
                            .item(item)
                            .conditionExpression(condition)
                            .expressionAttributeValues(values)));
      } else {
        List<TransactWriteItem> writes = new ArrayList<>();
        writes.add(
            TransactWriteItem.builder()
                .put(
                    p ->
                        p.tableName(table)
                            .item(item)
                            .conditionExpression(condition)
                            .expressionAttributeValues(values))
                .build());
        writes.addAll(DynamoDbTimerWrites.of(table, commit.timerChanges()));
        call(what, () -> dynamoDb.transactWriteItems(b -> b.transactItems(writes)));
        restoreExpiries(commit.timerChanges());
      }
    } catch (ConditionalCheckFailedException e) {
      throw new CommitConflictException(
          "Version " + commit.expectedVersion() + " of " + state.address() + " is outdated", e);
    } catch (TransactionCanceledException e) {
      String why = "The commit of " + state.address() + " with its timers was cancelled: ";
      if (hasReason(e, "ConditionalCheckFailed") || hasReason(e, "TransactionConflict")) {
        // Another commit won the address (or was writing it): reading it again settles it.
        throw new CommitConflictException(why + e.cancellationReasons(), e);
      }
      throw refused(what, e);
    }
  }

  /**
   * Gives the owners whose last token the changes freed their TTL back. The commit stands either
   * way: an owner this misses (a crash just now, DynamoDB refusing every retry) keeps its item
   * until its own next commit, which sets the TTL anew.
   */
  private void restoreExpiries(List<TimerChange> changes) {
    for (UpdateItemRequest update : DynamoDbTimerWrites.expiriesRestored(table, changes)) {
      try {
        call("restore the TTL of " + update.key(), () -> dynamoDb.updateItem(update));
      } catch (ConditionalCheckFailedException | StoreException e) {
        // Tokens still pending, or no TTL to restore; or see above.
      }
    }
  }

  private static boolean hasReason(TransactionCanceledException e, String code) {
    for (CancellationReason reason : e.cancellationReasons()) {
      if (code.equals(reason.code())) {
        return true;
      }
    }
    return false;
  }

  /**
   * A cancelled transaction that no reading again settles: throttled or failing on DynamoDB's side
   * after every retry (unavailable), or refused for what it holds.
   */
  private StoreException refused(String what, TransactionCanceledException e) {
    if (RetryPolicy.isPassing(e)) {
      return new StoreUnavailableException(
          "DynamoDB kept cancelling the transaction to "
              + what
              + " in table "
              + table
              + ": "
              + e.cancellationReasons(),
          e);
    }
    return new StoreException(
        StoreException.Reason.INVALID_REQUEST,
        "DynamoDB refused the transaction to "
            + what
            + " in table "
            + table
            + ": "
            + e.cancellationReasons(),
        e);
  }

  @Override
  public void registerOutboxes(OutboxKey key, Collection<Address> addresses) {
    List<String> texts = new ArrayList<>();
    addresses.forEach(address -> texts.add(DynamoDbOutboxItems.text(address)));
    call(
        "register the outboxes of " + addresses.size() + " addresses",
        () ->
            dynamoDb.updateItem(
                b ->
                    b.tableName(table)
                        .key(DynamoDbOutboxItems.key(key))
                        .updateExpression("ADD a :addresses, r :one")
                        .expressionAttributeValues(
                            Map.of(
                                ":addresses", AttributeValue.fromSs(texts),
                                ":one", DynamoDbStateItems.number(1)))));
  }

  @Override
  public Optional<OutboxTries> outboxPending(OutboxKey key, Address address) {
    String text = DynamoDbOutboxItems.text(address);
    Map<String, AttributeValue> item =
        call(
            "read the outbox registration " + key.asString(),
            () ->
                dynamoDb
                    .getItem(
                        b ->
                            b.tableName(table)
                                .key(DynamoDbOutboxItems.key(key))
                                .consistentRead(true)
                                .projectionExpression("a, #n, #o")
                                .expressionAttributeNames(
                                    Map.of(
                                        "#n",
                                        DynamoDbOutboxItems.attemptsOf(text),
                                        "#o",
                                        DynamoDbOutboxItems.outOf(text))))
                    .item());
    AttributeValue addresses = item == null ? null : item.get(DynamoDbOutboxItems.ADDRESSES);
    if (addresses == null || !addresses.hasSs() || !addresses.ss().contains(text)) {
      return Optional.empty();
    }
    return Optional.of(DynamoDbOutboxItems.tries(item, text));
  }

  @Override
  public void settleOutboxes(OutboxKey key, Collection<Address> addresses) {
    for (List<Address> chunk : chunks(addresses)) {
      settle(key, chunk);
    }
  }

  /**
   * {@code addresses} in runs of at most {@link #ADDRESSES_PER_UPDATE}: an update names two
   * attributes of each, and DynamoDB takes an expression of at most 4 KB.
   */
  private static List<List<Address>> chunks(Collection<Address> addresses) {
    List<Address> all = List.copyOf(addresses);
    List<List<Address>> chunks = new ArrayList<>();
    for (int from = 0; from < all.size(); from += ADDRESSES_PER_UPDATE) {
      chunks.add(all.subList(from, Math.min(all.size(), from + ADDRESSES_PER_UPDATE)));
    }
    return chunks;
  }

  private void settle(OutboxKey key, List<Address> addresses) {
    List<String> texts = new ArrayList<>();
    Map<String, String> names = new HashMap<>();
    StringBuilder counts = new StringBuilder();
    for (Address address : addresses) {
      String text = DynamoDbOutboxItems.text(address);
      texts.add(text);
      String name = "#n" + names.size();
      names.put(name, DynamoDbOutboxItems.attemptsOf(text));
      String outName = "#n" + names.size();
      names.put(outName, DynamoDbOutboxItems.outOf(text));
      counts
          .append(counts.length() == 0 ? " REMOVE " : ", ")
          .append(name)
          .append(", ")
          .append(outName);
    }
    try {
      call(
          "settle the outboxes of " + addresses.size() + " addresses",
          () ->
              dynamoDb.updateItem(
                  b ->
                      b.tableName(table)
                          .key(DynamoDbOutboxItems.key(key))
                          .updateExpression("DELETE a :addresses" + counts)
                          .conditionExpression("attribute_exists(pk)")
                          .expressionAttributeNames(names)
                          .expressionAttributeValues(
                              Map.of(":addresses", AttributeValue.fromSs(texts)))));
    } catch (ConditionalCheckFailedException gone) {
      // Removed meanwhile: every outbox it held was delivered.
    }
  }

  @Override
  public boolean removeOutboxes(OutboxKey key, long registrations) {
    try {
      call(
          "remove the outbox registration " + key.asString(),
          () ->
              dynamoDb.deleteItem(
                  b -> {
                    b.tableName(table).key(DynamoDbOutboxItems.key(key));
                    if (registrations >= 0) {
                      b.conditionExpression("attribute_not_exists(pk) OR r = :r")
                          .expressionAttributeValues(
                              Map.of(":r", DynamoDbStateItems.number(registrations)));
                    }
                  }));
      return true;
    } catch (ConditionalCheckFailedException added) {
      return false;
    }
  }

  @Override
  public List<OutboxEntry> dueOutboxes(int shard, long dueBy, long triedBefore, int limit) {
    List<OutboxEntry> due = new ArrayList<>();
    for (Map<String, AttributeValue> item :
        queryDue(DynamoDbOutboxItems.partitionKey(shard), dueBy, "tried", triedBefore, limit)) {
      due.add(DynamoDbOutboxItems.fromItem(item));
    }
    return due;
  }

  @Override
  public void outboxesTried(OutboxKey key, Map<Address, Set<String>> out, long triedAtMillis) {
    // The counts first, every chunk of them: a registration leaves room for them (half its item),
    // and they are what dead-letters an outbox in the end.
    for (List<Address> chunk : chunks(out.keySet())) {
      Map<String, String> names = new HashMap<>();
      StringBuilder adds = new StringBuilder();
      for (Address address : chunk) {
        String name = "#n" + names.size();
        names.put(name, DynamoDbOutboxItems.attemptsOf(DynamoDbOutboxItems.text(address)));
        adds.append(adds.length() == 0 ? " ADD " : ", ").append(name).append(" :one");
      }
      recordTry(key, adds, names, Map.of(":one", DynamoDbStateItems.number(1)), triedAtMillis);
    }
    // Then what went out, while it fits the rest of the item; what does not fit goes again.
    for (List<Address> chunk : chunks(out.keySet())) {
      Map<String, String> names = new HashMap<>();
      Map<String, AttributeValue> values = new HashMap<>();
      StringBuilder adds = new StringBuilder();
      for (Address address : chunk) {
        if (out.get(address).isEmpty()) {
          continue;
        }
        String name = "#n" + names.size();
        String value = ":o" + values.size();
        names.put(name, DynamoDbOutboxItems.outOf(DynamoDbOutboxItems.text(address)));
        values.put(value, AttributeValue.fromSs(List.copyOf(out.get(address))));
        adds.append(adds.length() == 0 ? " ADD " : ", ").append(name).append(' ').append(value);
      }
      if (names.isEmpty()) {
        continue;
      }
      try {
        recordTry(key, adds, names, values, triedAtMillis);
      } catch (StoreException e) {
        if (e instanceof StoreUnavailableException) {
          throw e;
        }
      }
    }
  }

  /** One update of a registration's tries: {@code adds} with when the try failed. */
  private void recordTry(
      OutboxKey key,
      CharSequence adds,
      Map<String, String> names,
      Map<String, AttributeValue> values,
      long triedAtMillis) {
    Map<String, AttributeValue> all = new HashMap<>(values);
    all.put(":tried", DynamoDbStateItems.number(triedAtMillis));
    try {
      call(
          "record a try of the outbox registration " + key.asString(),
          () ->
              dynamoDb.updateItem(
                  b -> {
                    b.tableName(table)
                        .key(DynamoDbOutboxItems.key(key))
                        .updateExpression("SET tried = :tried" + adds)
                        .conditionExpression("attribute_exists(pk)")
                        .expressionAttributeNames(names)
                        .expressionAttributeValues(all);
                  }));
    } catch (ConditionalCheckFailedException gone) {
      // Delivered meanwhile.
    }
  }

  @Override
  public void spillMarks(Address address, Collection<SpilledMark> marks) {
    List<Callable<Void>> writes = new ArrayList<>();
    List<WriteRequest> puts = new ArrayList<>();
    for (SpilledMark mark : marks) {
      if (mark.ordered()) {
        writes.add(
            () -> {
              spill(address, mark);
              return null;
            });
      } else {
        // Present or absent: a plain put, 25 to a request.
        Map<String, AttributeValue> item = new HashMap<>(DynamoDbMarkItems.key(address, mark.id()));
        item.put(DynamoDbMarkItems.POSITION, AttributeValue.fromS(mark.position()));
        item.put(TTL_ATTRIBUTE, DynamoDbStateItems.number(mark.expiresAtSeconds()));
        puts.add(WriteRequest.builder().putRequest(p -> p.item(item)).build());
      }
    }
    for (int from = 0; from < puts.size(); from += 25) {
      List<WriteRequest> chunk = puts.subList(from, Math.min(puts.size(), from + 25));
      writes.add(
          () -> {
            batchWrite(chunk);
            return null;
          });
    }
    parallel.all(writes);
  }

  private void spill(Address address, SpilledMark mark) {
    try {
      call(
          "keep a mark of " + address,
          () ->
              dynamoDb.updateItem(
                  b ->
                      b.tableName(table)
                          .key(DynamoDbMarkItems.key(address, mark.id()))
                          .updateExpression("SET p = :p, expires_at = :x")
                          .conditionExpression("attribute_not_exists(p) OR p < :p")
                          .expressionAttributeValues(
                              Map.of(
                                  ":p", AttributeValue.fromS(mark.position()),
                                  ":x", DynamoDbStateItems.number(mark.expiresAtSeconds())))));
    } catch (ConditionalCheckFailedException further) {
      // A mark as far or further is kept already.
    }
  }

  private void batchWrite(List<WriteRequest> requests) {
    Map<String, List<WriteRequest>> left =
        retry.untilDone(
            Map.of(table, requests),
            pending ->
                call(
                        "keep " + requests.size() + " marks",
                        () -> dynamoDb.batchWriteItem(b -> b.requestItems(pending)))
                    .unprocessedItems(),
            Map::isEmpty);
    if (!left.isEmpty()) {
      // Unprocessed items are DynamoDB's way of throttling a batch.
      throw new StoreUnavailableException(
          "DynamoDB left marks of table " + table + " unwritten after every retry", null);
    }
  }

  @Override
  public Map<String, SpilledMark> spilledMarks(Address address, Collection<String> ids) {
    List<Map<String, AttributeValue>> keys = new ArrayList<>();
    new HashSet<>(ids).forEach(id -> keys.add(DynamoDbMarkItems.key(address, id)));
    Map<String, SpilledMark> found = new HashMap<>();
    for (Map<String, AttributeValue> item : batchGet(keys, true)) {
      SpilledMark mark = DynamoDbMarkItems.fromItem(item);
      found.put(mark.id(), mark);
    }
    return found;
  }

  @Override
  public void dropTimer(TimerKey key, Address owner, String token) {
    String what = "drop timer " + key.asString();
    if (token != null) {
      List<TimerChange> changes =
          List.of(new TimerChange.Consume(key), new TimerChange.ReleaseToken(owner, token, key));
      List<TransactWriteItem> writes = DynamoDbTimerWrites.of(table, changes);
      try {
        call(what, () -> dynamoDb.transactWriteItems(b -> b.transactItems(writes)));
        restoreExpiries(changes);
        return;
      } catch (TransactionCanceledException e) {
        List<CancellationReason> reasons = e.cancellationReasons();
        if (!reasons.isEmpty() && "ConditionalCheckFailed".equals(reasons.get(0).code())) {
          return; // the timer is gone already
        }
        if (reasons.size() < 2 || !"ConditionalCheckFailed".equals(reasons.get(1).code())) {
          // Throttled or conflicting to the end: dropping the timer alone would leave the owner's
          // token naming it, refusing every later message that sets the token.
          throw refused(what, e);
        }
        // The owner's token names another timer (or the owner is gone): drop the timer alone.
      }
    }
    call(what, () -> dynamoDb.deleteItem(b -> b.tableName(table).key(DynamoDbTimerItems.key(key))));
  }

  @Override
  public List<Timer> dueTimers(int shard, long dueBy, long sentBefore, int limit) {
    List<Timer> due = new ArrayList<>();
    for (Map<String, AttributeValue> item :
        queryDue(DynamoDbTimerItems.partitionKey(shard), dueBy, "sent", sentBefore, limit)) {
      due.add(DynamoDbTimerItems.fromItem(item));
    }
    return due;
  }

  /**
   * The items of partition {@code pk} due by {@code dueBy} whose {@code attempted} attribute is
   * absent or before {@code before}, earliest first, at most {@code limit}.
   */
  private List<Map<String, AttributeValue>> queryDue(
      String pk, long dueBy, String attempted, long before, int limit) {
    return queryItems(
        "read what is due in " + pk,
        b ->
            b.keyConditionExpression("pk = :pk AND sk < :after")
                .filterExpression("attribute_not_exists(#at) OR #at < :before")
                .expressionAttributeNames(Map.of("#at", attempted))
                .expressionAttributeValues(
                    Map.of(
                        ":pk", AttributeValue.fromS(pk),
                        ":after", AttributeValue.fromS(SortedKeys.sortKeyAfter(dueBy)),
                        ":before", DynamoDbStateItems.number(before))),
        limit);
  }

  /**
   * The items a query of the table finds, page after page (a filter may leave a page short), at
   * most {@code limit}.
   */
  private List<Map<String, AttributeValue>> queryItems(
      String what, Consumer<QueryRequest.Builder> query, int limit) {
    List<Map<String, AttributeValue>> found = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      Map<String, AttributeValue> from = start;
      QueryResponse page =
          call(
              what,
              () ->
                  dynamoDb.query(
                      b -> query.accept(b.tableName(table).limit(limit).exclusiveStartKey(from))));
      for (Map<String, AttributeValue> item : page.items()) {
        if (found.size() < limit) {
          found.add(item);
        }
      }
      start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
    } while (start != null && found.size() < limit);
    return found;
  }

  @Override
  public void markSent(TimerKey key, long sentAtMillis) {
    setOnTimer(key, "sent", sentAtMillis, "mark timer " + key.asString() + " sent");
  }

  /** Sets {@code attribute} of the timer's item, if the timer is still there. */
  private void setOnTimer(TimerKey key, String attribute, long value, String what) {
    try {
      call(
          what,
          () ->
              dynamoDb.updateItem(
                  b ->
                      b.tableName(table)
                          .key(DynamoDbTimerItems.key(key))
                          .updateExpression("SET #a = :v")
                          .conditionExpression("attribute_exists(pk)")
                          .expressionAttributeNames(Map.of("#a", attribute))
                          .expressionAttributeValues(
                              Map.of(":v", DynamoDbStateItems.number(value)))));
    } catch (ConditionalCheckFailedException gone) {
      // Applied or cancelled meanwhile: nothing to mark.
    }
  }

  @Override
  public Optional<Timer> timer(TimerKey key) {
    Map<String, AttributeValue> item =
        call(
            "read timer " + key.asString(),
            () ->
                dynamoDb
                    .getItem(
                        b ->
                            b.tableName(table)
                                .key(DynamoDbTimerItems.key(key))
                                .consistentRead(true))
                    .item());
    return item == null || item.isEmpty()
        ? Optional.empty()
        : Optional.of(DynamoDbTimerItems.fromItem(item));
  }

  @Override
  public List<Timer> timersToWake(int shard, long after, long dueBy, int limit) {
    String pk = DynamoDbTimerItems.partitionKey(shard);
    List<Timer> found = new ArrayList<>();
    for (Map<String, AttributeValue> item :
        queryItems(
            "read the timers to wake in " + pk,
            b ->
                b.keyConditionExpression("pk = :pk AND sk BETWEEN :from AND :to")
                    .filterExpression("attribute_not_exists(#w)")
                    .expressionAttributeNames(Map.of("#w", DynamoDbTimerItems.WAKE_UP))
                    .expressionAttributeValues(
                        Map.of(
                            ":pk", AttributeValue.fromS(pk),
                            ":from", AttributeValue.fromS(SortedKeys.sortKeyAfter(after)),
                            ":to", AttributeValue.fromS(SortedKeys.sortKeyAfter(dueBy)))),
            limit)) {
      found.add(DynamoDbTimerItems.fromItem(item));
    }
    return found;
  }

  @Override
  public void markWokenUp(TimerKey key, long atMillis) {
    setOnTimer(
        key, DynamoDbTimerItems.WAKE_UP, atMillis, "mark the wake-up of timer " + key.asString());
  }

  @Override
  public long sizeOf(AddressState state) {
    return DynamoDbStateItems.sizeOf(state);
  }

  @Override
  public long maxStateBytes() {
    return MAX_STATE_BYTES;
  }

  @Override
  public String toString() {
    return "DynamoDbFunctionStore[" + table + "]";
  }

  private List<Map<String, AttributeValue>> batchGet(
      List<Map<String, AttributeValue>> keys, boolean consistent) {
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    for (int from = 0; from < keys.size(); from += BATCH_GET_LIMIT) {
      items.addAll(
          batchGetChunk(
              keys.subList(from, Math.min(keys.size(), from + BATCH_GET_LIMIT)), consistent));
    }
    return items;
  }

  private List<Map<String, AttributeValue>> batchGetChunk(
      List<Map<String, AttributeValue>> keys, boolean consistent) {
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    Map<String, KeysAndAttributes> left =
        retry.untilDone(
            Map.of(
                table, KeysAndAttributes.builder().keys(keys).consistentRead(consistent).build()),
            pending -> {
              BatchGetItemResponse response =
                  call(
                      "read " + keys.size() + " items",
                      () -> dynamoDb.batchGetItem(b -> b.requestItems(pending)));
              items.addAll(response.responses().getOrDefault(table, List.of()));
              return response.unprocessedKeys();
            },
            pending -> pending.values().stream().allMatch(k -> !k.hasKeys() || k.keys().isEmpty()));
    if (!left.values().stream().allMatch(k -> !k.hasKeys() || k.keys().isEmpty())) {
      // Unprocessed keys are DynamoDB's way of throttling a batch.
      throw new StoreUnavailableException(
          "DynamoDB left keys of table " + table + " unread after every retry", null);
    }
    return items;
  }

  private <T> T call(String what, Supplier<T> call) {
    try {
      return retry.call(call);
    } catch (ConditionalCheckFailedException | TransactionCanceledException e) {
      throw e;
    } catch (SdkException e) {
      if (RetryPolicy.isPassing(e)) {
        throw new StoreUnavailableException(
            "DynamoDB kept refusing to " + what + " in table " + table + ": " + e.getMessage(), e);
      }
      throw new StoreException(
          StoreException.Reason.INVALID_REQUEST,
          "DynamoDB failed to " + what + " in table " + table + ": " + e.getMessage(),
          e);
    }
  }
}
