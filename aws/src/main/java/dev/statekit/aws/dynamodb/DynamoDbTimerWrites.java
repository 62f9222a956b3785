package dev.statekit.aws.dynamodb;

import static dev.statekit.aws.ApplicationTable.TTL_ATTRIBUTE;

import dev.statekit.function.Address;
import dev.statekit.runtime.store.DynamoDbStateItems;
import dev.statekit.runtime.store.DynamoDbTimerItems;
import dev.statekit.runtime.store.Timer;
import dev.statekit.runtime.store.TimerChange;
import dev.statekit.runtime.store.TimerKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** The transaction items for a commit's timer changes. */
final class DynamoDbTimerWrites {
  private DynamoDbTimerWrites() {}

  static List<TransactWriteItem> of(String table, List<TimerChange> changes) {
    List<TransactWriteItem> writes = new ArrayList<>();
    // One item may appear once per transaction: an owner's released tokens share one update.
    Map<Address, List<TimerChange.ReleaseToken>> releases = new LinkedHashMap<>();
    for (TimerChange change : changes) {
      if (change instanceof TimerChange.Schedule) {
        Timer timer = ((TimerChange.Schedule) change).timer();
        writes.add(
            TransactWriteItem.builder()
                .put(
                    p ->
                        p.tableName(table)
                            .item(DynamoDbTimerItems.toItem(timer))
                            .conditionExpression("attribute_not_exists(pk)"))
                .build());
      } else if (change instanceof TimerChange.Cancel) {
        TimerKey key = ((TimerChange.Cancel) change).key();
        writes.add(
            TransactWriteItem.builder()
                .delete(d -> d.tableName(table).key(DynamoDbTimerItems.key(key)))
                .build());
      } else if (change instanceof TimerChange.Consume) {
        TimerKey key = ((TimerChange.Consume) change).key();
        writes.add(
            TransactWriteItem.builder()
                .delete(
                    d ->
                        d.tableName(table)
                            .key(DynamoDbTimerItems.key(key))
                            .conditionExpression("attribute_exists(pk)"))
                .build());
      } else {
        TimerChange.ReleaseToken release = (TimerChange.ReleaseToken) change;
        releases.computeIfAbsent(release.owner(), o -> new ArrayList<>()).add(release);
      }
    }
    releases.forEach((owner, tokens) -> writes.add(release(table, owner, tokens)));
    return writes;
  }

  /**
   * The owners whose tokens the changes free, each with the update that gives its item back the TTL
   * it has without tokens, once none is left: a transaction's update cannot ask whether it removed
   * the last one, so this runs after it, on that condition.
   */
  static List<UpdateItemRequest> expiriesRestored(String table, List<TimerChange> changes) {
    Set<Address> owners = new LinkedHashSet<>();
    for (TimerChange change : changes) {
      if (change instanceof TimerChange.ReleaseToken release) {
        owners.add(release.owner());
      }
    }
    List<UpdateItemRequest> updates = new ArrayList<>();
    for (Address owner : owners) {
      updates.add(
          UpdateItemRequest.builder()
              .tableName(table)
              .key(DynamoDbStateItems.key(owner))
              .updateExpression("SET #ttl = #xe REMOVE #xe")
              .conditionExpression(
                  "attribute_exists(#xe) AND (attribute_not_exists(#tok) OR size(#tok) = :none)")
              .expressionAttributeNames(
                  Map.of(
                      "#ttl", TTL_ATTRIBUTE,
                      "#xe", DynamoDbStateItems.EXPIRES_WITHOUT_TOKENS,
                      "#tok", DynamoDbStateItems.TOKENS))
              .expressionAttributeValues(Map.of(":none", DynamoDbStateItems.number(0)))
              .build());
    }
    return updates;
  }

  private static TransactWriteItem release(
      String table, Address owner, List<TimerChange.ReleaseToken> tokens) {
    Map<String, String> names = new HashMap<>();
    Map<String, AttributeValue> values = new HashMap<>();
    List<String> removes = new ArrayList<>();
    List<String> conditions = new ArrayList<>();
    for (int i = 0; i < tokens.size(); i++) {
      names.put("#t" + i, tokens.get(i).token());
      values.put(":k" + i, DynamoDbStateItems.timerKey(tokens.get(i).timer()));
      removes.add("tok.#t" + i);
      conditions.add("tok.#t" + i + " = :k" + i);
    }
    values.put(":one", DynamoDbStateItems.number(1));
    String update = "REMOVE " + String.join(", ", removes) + " SET v = v + :one";
    return TransactWriteItem.builder()
        .update(
            u ->
                u.tableName(table)
                    .key(DynamoDbStateItems.key(owner))
                    .updateExpression(update)
                    .conditionExpression(String.join(" AND ", conditions))
                    .expressionAttributeNames(names)
                    .expressionAttributeValues(values))
        .build();
  }
}
