package dev.statekit.runtime.internal;

import com.google.protobuf.ByteString;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.egress.FunctionAddressSink;
import dev.statekit.function.Address;
import dev.statekit.function.DelayedMessage;
import dev.statekit.function.EgressMessage;
import dev.statekit.function.Message;
import dev.statekit.invocation.DelayedAction;
import dev.statekit.invocation.InvocationEffects;
import dev.statekit.runtime.internal.data.Outbox;
import dev.statekit.runtime.internal.data.OutgoingBundle;
import dev.statekit.runtime.internal.data.OutgoingEgress;
import dev.statekit.runtime.internal.data.Payload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects a commit's outgoing effects into its outbox: messages to each target, in the order they
 * were sent, packed into as few bundles (one queue message each) as fit; and egress records.
 */
final class OutboxBuilder {
  private final RuntimeSettings settings;
  private final Address self;
  private final Map<Address, List<List<Payload>>> bundles = new LinkedHashMap<>();
  private final Map<Address, Long> openBundleBytes = new LinkedHashMap<>();
  private final List<OutgoingEgress> egress = new ArrayList<>();

  OutboxBuilder(RuntimeSettings settings, Address self) {
    this.settings = settings;
    this.self = self;
  }

  /** Adds one applied invocation's effects, each carrying {@code traceId} (none if null). */
  void add(InvocationEffects effects, String traceId) {
    String trace = traceId == null ? "" : traceId;
    for (Message message : effects.messages()) {
      send(message.targetAddress(), message.valueTypeName().asString(), message.rawValue(), trace);
    }
    for (DelayedAction action : effects.delayed()) {
      DelayedMessage delayed = action.message();
      if (delayed != null && delayed.delay().isZero() && delayed.cancellationToken().isEmpty()) {
        Message message = delayed.message();
        send(
            message.targetAddress(), message.valueTypeName().asString(), message.rawValue(), trace);
      }
    }
    for (EgressMessage record : effects.egress()) {
      String typeName = record.valueTypeName().asString();
      byte[] value = record.rawValue();
      EgressRoutes.Routed routed =
          settings.egress.resolve("check", record.targetEgress(), self, typeName, value);
      if (routed.sink() instanceof FunctionAddressSink) {
        // Like the function's own messages: through the outbox, in order, applied once.
        send(((FunctionAddressSink) routed.sink()).target(), typeName, value, trace);
      } else {
        egress.add(
            OutgoingEgress.newBuilder()
                .setEgress(record.targetEgress().asString())
                .setTypeName(typeName)
                .setValue(ByteString.copyFrom(value))
                .setTraceId(trace)
                .build());
      }
    }
  }

  /** The outbox so far (without proof or dead letters). */
  Outbox.Builder build() {
    Outbox.Builder outbox = Outbox.newBuilder();
    bundles.forEach(
        (target, parts) -> {
          for (int part = 0; part < parts.size(); part++) {
            outbox.addBundles(
                OutgoingBundle.newBuilder()
                    .setTargetType(target.type().asString())
                    .setTargetId(target.id())
                    .setPart(part)
                    .addAllPayloads(parts.get(part)));
          }
        });
    outbox.addAllEgress(egress);
    return outbox;
  }

  /** JSON framing of a bundle from {@code from} to {@code target}, generously counted. */
  static long bundleOverhead(Address from, Address target) {
    return 256 + addressBytes(from.toString()) + addressBytes(target.toString());
  }

  /** An address's share: twice its characters, or the bytes it takes written, if more. */
  private static long addressBytes(String address) {
    return Math.max(2L * address.length(), jsonBytes(address));
  }

  /**
   * The most bytes {@code text} takes inside a JSON string of a body as it goes to the queue: in
   * UTF-8, a quote or backslash as 2, a control character or one SQS refuses as a 6-byte escape
   * ({@link dev.statekit.bus.SqsText#escape}).
   */
  static long jsonBytes(String text) {
    long bytes = 0;
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      if (c == '"' || c == '\\') {
        bytes += 2;
      } else if (c < 0x20 || !dev.statekit.bus.SqsText.allowed(c)) {
        bytes += 6;
      } else {
        bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      }
      i += Character.charCount(c);
    }
    return bytes;
  }

  /** A payload's share of a bundle body: base64 of the value and its framing, a trace id's room. */
  static long payloadSize(String typeName, int valueBytes) {
    return 48 + TRACE_ROOM + jsonBytes(typeName) + 4L * ((valueBytes + 2) / 3);
  }

  /** A message's {@code "trace": "..."} at its longest. */
  private static final int TRACE_ROOM = 12 + dev.statekit.telemetry.TraceIds.MAX_LENGTH;

  private void send(Address target, String typeName, byte[] value, String trace) {
    List<List<Payload>> parts = bundles.computeIfAbsent(target, t -> new ArrayList<>());
    long size = payloadSize(typeName, value.length);
    long open = openBundleBytes.getOrDefault(target, 0L);
    if (parts.isEmpty() || open + size > settings.maxBodyBytes()) {
      parts.add(new ArrayList<>());
      open = bundleOverhead(self, target);
    }
    parts
        .get(parts.size() - 1)
        .add(
            Payload.newBuilder()
                .setTypeName(typeName)
                .setValue(ByteString.copyFrom(value))
                .setTraceId(trace)
                .build());
    openBundleBytes.put(target, open + size);
  }
}
