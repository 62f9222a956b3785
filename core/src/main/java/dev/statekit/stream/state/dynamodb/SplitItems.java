package dev.statekit.stream.state.dynamodb;

import dev.statekit.stream.lambda.SplitState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A {@link SplitState} as item attributes, readable in the console: {@code v} version, {@code pos}
 * position, {@code wm} watermark, {@code fwm} fire watermark, {@code cw}/{@code cwat} candidate and
 * when it was set, {@code act} last batch, {@code ft} fired through, {@code pft}/{@code pend} a
 * pending fire and its timer items. Absent numbers are {@link Long#MIN_VALUE} (0 for times).
 */
final class SplitItems {
  private SplitItems() {}

  static Map<String, AttributeValue> write(SplitState state) {
    Map<String, AttributeValue> item = new HashMap<>();
    item.put("v", Items.number(state.version()));
    if (state.position() != null) {
      item.put("pos", AttributeValue.fromS(state.position()));
    }
    putIfSet(item, "wm", state.watermark());
    putIfSet(item, "fwm", state.fireWatermark());
    putIfSet(item, "cw", state.candidate());
    item.put("cwat", Items.number(state.candidateAt()));
    item.put("act", Items.number(state.activeAt()));
    putIfSet(item, "ft", state.firedThrough());
    putIfSet(item, "pft", state.pendingThrough());
    if (!state.pendingTimers().isEmpty()) {
      item.put(
          "pend",
          AttributeValue.fromL(state.pendingTimers().stream().map(AttributeValue::fromS).toList()));
    }
    return item;
  }

  static SplitState read(Map<String, AttributeValue> item) {
    AttributeValue pending = item.get("pend");
    return new SplitState(
        item.get("sk").s(),
        Items.number(item.get("v")),
        Items.string(item.get("pos")),
        Items.number(item.get("wm"), Long.MIN_VALUE),
        Items.number(item.get("fwm"), Long.MIN_VALUE),
        Items.number(item.get("cw"), Long.MIN_VALUE),
        Items.number(item.get("cwat")),
        Items.number(item.get("act")),
        Items.number(item.get("ft"), Long.MIN_VALUE),
        Items.number(item.get("pft"), Long.MIN_VALUE),
        pending == null ? List.of() : pending.l().stream().map(AttributeValue::s).toList());
  }

  private static void putIfSet(Map<String, AttributeValue> item, String name, long value) {
    if (value != Long.MIN_VALUE) {
      item.put(name, Items.number(value));
    }
  }
}
