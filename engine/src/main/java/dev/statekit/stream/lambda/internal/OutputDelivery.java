package dev.statekit.stream.lambda.internal;

import dev.statekit.egress.EgressException;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import dev.statekit.stream.lambda.RefusedOutput;
import dev.statekit.telemetry.Log;
import java.util.ArrayList;
import java.util.List;

/**
 * Delivers an output's records to its sink. A record the sink refuses for what it holds (named by
 * {@link EgressException#refusedRecordId()}) is refused on every try, so without a place to set it
 * aside it fails its batch until Lambda gives the batch up, and the replay of the range fails the
 * same way, holding the split's windows. With one ({@code refusedOutputsTo}), such records go there
 * as {@link RefusedOutput}s and the rest to the sink; a failure of the sink itself (unreachable, a
 * missing queue, no permission) names no record and still fails the batch, whose retry delivers
 * again with the same ids.
 */
final class OutputDelivery {
  private static final Log LOG = Log.of(OutputDelivery.class);

  private final EgressSink refusedSink;

  /** Sets refused records aside in {@code refusedSink}, or, if null, fails their batch. */
  OutputDelivery(EgressSink refusedSink) {
    this.refusedSink = refusedSink;
  }

  void deliver(EgressSink sink, List<EgressRecord> records) {
    try {
      sink.deliver(records);
    } catch (EgressException e) {
      String refused = e.refusedRecordId().orElse(null);
      if (refused == null) {
        throw e;
      }
      if (refusedSink == null) {
        throw EgressException.refusing(
            refused,
            e.getMessage()
                + ". It fails its batch on every try: fix what makes it, or give the pipeline a"
                + " place for such records (BatchPipeline.builder(...).refusedOutputsTo(sink)) to"
                + " set them aside and go on",
            e);
      }
      setAside(sink, records, refused, e);
    }
  }

  /** Sorts the records by the sink's check, delivers the rest, then the refused ones' stand-ins. */
  private void setAside(
      EgressSink sink, List<EgressRecord> records, String firstId, EgressException first) {
    List<EgressRecord> pending = new ArrayList<>();
    List<EgressRecord> refused = new ArrayList<>();
    for (EgressRecord record : records) {
      try {
        if (record.id().equals(firstId)) {
          throw first;
        }
        sink.check(record);
        pending.add(record);
      } catch (EgressException e) {
        if (e.refusedRecordId().isEmpty()) {
          throw e;
        }
        refused.addAll(standIns(record, e));
      }
    }
    // A sink may refuse in a delivery what its check lets through: each refusal names one more.
    while (!pending.isEmpty()) {
      try {
        sink.deliver(pending);
        break;
      } catch (EgressException e) {
        String id = e.refusedRecordId().orElse(null);
        if (id == null || pending.stream().noneMatch(r -> r.id().equals(id))) {
          throw e;
        }
        List<EgressRecord> left = new ArrayList<>();
        for (EgressRecord record : pending) {
          if (record.id().equals(id)) {
            refused.addAll(standIns(record, e));
          } else if (!e.deliveredRecordIds().contains(record.id())) {
            left.add(record);
          }
        }
        pending = left;
      }
    }
    refusedSink.deliver(refused);
    LOG.warn(
        refused.size()
            + " part(s) of output records refused by "
            + sink
            + " set aside in "
            + refusedSink
            + ", the first: "
            + first.getMessage());
  }

  /** The records that carry {@code record} to the place: its value in parts. */
  private static List<EgressRecord> standIns(EgressRecord record, EgressException refusal) {
    byte[] value = record.value();
    int parts =
        Math.max(
            1, (value.length + RefusedOutput.MAX_VALUE_BYTES - 1) / RefusedOutput.MAX_VALUE_BYTES);
    List<EgressRecord> records = new ArrayList<>(parts);
    for (int part = 1; part <= parts; part++) {
      int from = (part - 1) * RefusedOutput.MAX_VALUE_BYTES;
      byte[] bytes =
          java.util.Arrays.copyOfRange(
              value, from, Math.min(value.length, from + RefusedOutput.MAX_VALUE_BYTES));
      RefusedOutput output = refusedOutput(record, refusal.getMessage(), part, parts, bytes);
      records.add(
          EgressRecord.builder(
                  parts == 1 ? record.id() : record.id() + "#part" + part,
                  RefusedOutput.EGRESS,
                  record.source(),
                  RefusedOutput.TYPE.typeName().asString(),
                  RefusedOutput.TYPE.serialize(output))
              .build());
    }
    return records;
  }

  /**
   * What is set aside, without a value, in the place of {@code first} and the outputs after it that
   * take {@code bytes} in all, refused for {@code reason}.
   */
  static RefusedOutput withoutValue(EgressRecord first, long bytes, String reason) {
    RefusedOutput output = refusedOutput(first, reason, 0, 0, null);
    return new RefusedOutput(
        output.egress(),
        output.id(),
        output.source(),
        output.key(),
        output.typeName(),
        (int) Math.min(Integer.MAX_VALUE, bytes),
        output.reason(),
        0,
        0,
        null);
  }

  private static RefusedOutput refusedOutput(
      EgressRecord record, String reason, int part, int parts, byte[] value) {
    return new RefusedOutput(
        record.egress().asString(),
        record.id(),
        record.source().toString(),
        record.key().map(key -> cut(key, RefusedOutput.MAX_KEY_CHARS)).orElse(null),
        record.valueTypeName(),
        record.value().length,
        cut(String.valueOf(reason), RefusedOutput.MAX_REASON_CHARS),
        part,
        parts,
        value);
  }

  private static String cut(String text, int chars) {
    return text.length() > chars ? text.substring(0, chars) : text;
  }
}
