package dev.statekit.stream.lambda.dynamodb;

import dev.statekit.aws.ApplicationTable;
import dev.statekit.stream.lambda.Attempt;
import dev.statekit.stream.lambda.GivenUp;
import dev.statekit.stream.lambda.SplitState;
import dev.statekit.stream.state.dynamodb.Items;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A {@link SplitState} as item attributes, readable in the console: {@code v} version, {@code pos}
 * position, {@code ls} the first offset of the batch that wrote it, {@code rs} where Lambda may
 * resume (a list), {@code wm} watermark, {@code fwm} fire watermark, {@code cw}/{@code cwat}
 * candidate and when it was set, {@code act} last batch, {@code ft} fired through, {@code gu} the
 * records given up (a list of maps: {@code after}, {@code before}, {@code wm}, {@code at}). Absent
 * numbers are {@link Long#MIN_VALUE} (0 for times). An attempt is an item of its own: {@code f},
 * {@code l}, {@code at}, {@code wm} (the watermark its records reach).
 */
final class SplitItems {
  private SplitItems() {}

  static Map<String, AttributeValue> write(SplitState state) {
    Map<String, AttributeValue> item = new HashMap<>();
    item.put("v", Items.number(state.version()));
    putIfSet(item, "pos", state.position());
    putIfSet(item, "ls", state.lastStart());
    if (!state.resumes().isEmpty()) {
      item.put(
          "rs", AttributeValue.fromL(state.resumes().stream().map(AttributeValue::fromS).toList()));
    }
    putIfSet(item, "wm", state.watermark());
    putIfSet(item, "fwm", state.fireWatermark());
    putIfSet(item, "cw", state.candidate());
    item.put("cwat", Items.number(state.candidateAt()));
    item.put("act", Items.number(state.activeAt()));
    putIfSet(item, "ft", state.firedThrough());
    if (!state.givenUp().isEmpty()) {
      item.put("gu", AttributeValue.fromL(state.givenUp().stream().map(SplitItems::gap).toList()));
    }
    return item;
  }

  static SplitState read(Map<String, AttributeValue> item) {
    AttributeValue gaps = item.get("gu");
    String split = item.get("sk").s();
    return new SplitState(
        split,
        Items.number(item.get("v")),
        Items.string(item.get("pos")),
        Items.string(item.get("ls")),
        resumes(item.get("rs")),
        Items.number(item.get("wm"), Long.MIN_VALUE),
        Items.number(item.get("fwm"), Long.MIN_VALUE),
        Items.number(item.get("cw"), Long.MIN_VALUE),
        Items.number(item.get("cwat")),
        Items.number(item.get("act")),
        Items.number(item.get("ft"), Long.MIN_VALUE),
        gaps == null ? List.of() : gaps.l().stream().map(g -> gap(split, g.m())).toList());
  }

  /** A list of offsets, or the one offset items written before there could be several hold. */
  private static List<String> resumes(AttributeValue value) {
    if (value == null) {
      return List.of();
    }
    return value.s() != null
        ? List.of(value.s())
        : value.l().stream().map(AttributeValue::s).toList();
  }

  static Map<String, AttributeValue> attempt(Attempt attempt, long expiresAt) {
    Map<String, AttributeValue> item = new HashMap<>();
    item.put("f", AttributeValue.fromS(attempt.first()));
    item.put("l", AttributeValue.fromS(attempt.last()));
    item.put("at", Items.number(attempt.at()));
    putIfSet(item, "wm", attempt.watermark());
    if (expiresAt > 0) {
      item.put(ApplicationTable.TTL_ATTRIBUTE, Items.number(expiresAt));
    }
    return item;
  }

  static Attempt readAttempt(Map<String, AttributeValue> item) {
    return new Attempt(
        item.get("f").s(),
        item.get("l").s(),
        Items.number(item.get("at")),
        Items.number(item.get("wm"), Long.MIN_VALUE));
  }

  private static AttributeValue gap(GivenUp gap) {
    Map<String, AttributeValue> map = new HashMap<>();
    putIfSet(map, "after", gap.after());
    map.put("before", AttributeValue.fromS(gap.before()));
    putIfSet(map, "wm", gap.watermark());
    map.put("at", Items.number(gap.at()));
    putIfSet(map, "att", gap.attempted());
    return AttributeValue.fromM(map);
  }

  private static GivenUp gap(String split, Map<String, AttributeValue> map) {
    return new GivenUp(
        split,
        Items.string(map.get("after")),
        map.get("before").s(),
        Items.number(map.get("wm"), Long.MIN_VALUE),
        Items.number(map.get("at")),
        Items.string(map.get("att")));
  }

  private static void putIfSet(Map<String, AttributeValue> item, String name, String value) {
    if (value != null) {
      item.put(name, AttributeValue.fromS(value));
    }
  }

  private static void putIfSet(Map<String, AttributeValue> item, String name, long value) {
    if (value != Long.MIN_VALUE) {
      item.put(name, Items.number(value));
    }
  }
}
