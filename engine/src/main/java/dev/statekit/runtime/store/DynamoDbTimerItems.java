package dev.statekit.runtime.store;

import static dev.statekit.runtime.store.TableKeys.PARTITION_KEY;
import static dev.statekit.runtime.store.TableKeys.SORT_KEY;

import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A timer as one DynamoDB item: {@code pk = timer#<shard>}, {@code sk = <due ms, 13 digits>#<id>}
 * (so a query on the shard reads due timers first), {@code g} the target's message group, {@code b}
 * the message body, {@code sent} when a sweep or a wake-up last sent it, {@code w} when a wake-up
 * was put for it.
 */
public final class DynamoDbTimerItems {
  static final String PREFIX = "timer#";
  static final String GROUP = "g";
  static final String BODY = "b";
  static final String SENT = "sent";

  /** When a wake-up was put for the timer (the sweep puts none for a timer that has one). */
  public static final String WAKE_UP = "w";

  private DynamoDbTimerItems() {}

  public static Map<String, AttributeValue> key(TimerKey key) {
    return Map.of(
        PARTITION_KEY, AttributeValue.fromS(partitionKey(key.shard())),
        SORT_KEY, AttributeValue.fromS(sortKey(key)));
  }

  public static String partitionKey(int shard) {
    return PREFIX + shard;
  }

  public static Map<String, AttributeValue> toItem(Timer timer) {
    Map<String, AttributeValue> item = new HashMap<>(key(timer.key()));
    item.put(GROUP, AttributeValue.fromS(timer.groupId()));
    item.put(BODY, AttributeValue.fromS(timer.body()));
    if (timer.sentAtMillis() > 0) {
      item.put(SENT, DynamoDbStateItems.number(timer.sentAtMillis()));
    }
    if (timer.wakeUpAtMillis() > 0) {
      item.put(WAKE_UP, DynamoDbStateItems.number(timer.wakeUpAtMillis()));
    }
    return item;
  }

  public static Timer fromItem(Map<String, AttributeValue> item) {
    int shard = Integer.parseInt(item.get(PARTITION_KEY).s().substring(PREFIX.length()));
    String sortKey = item.get(SORT_KEY).s();
    int hash = sortKey.indexOf('#');
    TimerKey key =
        new TimerKey(
            shard, Long.parseLong(sortKey.substring(0, hash)), sortKey.substring(hash + 1));
    AttributeValue sent = item.get(SENT);
    AttributeValue wakeUp = item.get(WAKE_UP);
    return new Timer(
        key,
        item.get(GROUP).s(),
        item.get(BODY).s(),
        sent == null ? 0 : Long.parseLong(sent.n()),
        wakeUp == null ? 0 : Long.parseLong(wakeUp.n()));
  }

  static String sortKey(TimerKey key) {
    return SortedKeys.sortKey(key.dueAtMillis(), key.id());
  }
}
