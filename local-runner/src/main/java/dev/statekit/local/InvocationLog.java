package dev.statekit.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.function.DelayedMessage;
import dev.statekit.function.EgressMessage;
import dev.statekit.function.Message;
import dev.statekit.function.StatefulFunctionSpec;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.runtime.InvocationObserver;
import dev.statekit.runtime.ObservedInvocation;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The console's record of what the runtime ran: the latest invocations in a bounded ring (the
 * oldest dropped first), each numbered so a page asks only for newer ones; per-second counts for
 * the charts; the messages seen between function types and to egresses, for the graph; and the
 * addresses seen. Thread-safe; the runtime's threads only append.
 */
final class InvocationLog implements InvocationObserver {
  static final int CAPACITY = 500;
  private static final int SECONDS_KEPT = 300;
  private static final int ADDRESSES_KEPT = 2000;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final int capacity;
  private final Deque<ObjectNode> latest = new ArrayDeque<>();
  private final Map<Long, long[]> perSecond = new LinkedHashMap<>();
  private final Map<String, Long> edges = new LinkedHashMap<>();
  private final Set<String> addresses = new LinkedHashSet<>();
  private final long[] totals = new long[Counter.values().length];
  private long sequence;
  private volatile Supplier<StatefulFunctions> functions = () -> null;

  /** What the charts count. */
  enum Counter {
    APPLIED,
    FAILED,
    DEAD_LETTERED,
    SENT,
    EGRESS
  }

  InvocationLog() {
    this(CAPACITY);
  }

  InvocationLog(int capacity) {
    this.capacity = capacity;
  }

  /** Where the functions' value specs come from, to decode state by its declared types. */
  void decodeWith(Supplier<StatefulFunctions> registry) {
    this.functions = registry;
  }

  @Override
  public void observed(ObservedInvocation invocation) {
    ObjectNode json = json(invocation);
    long second = invocation.time().getEpochSecond();
    synchronized (this) {
      json.put("seq", ++sequence);
      latest.addLast(json);
      while (latest.size() > capacity) {
        latest.removeFirst();
      }
      long[] counts = perSecond.computeIfAbsent(second, s -> new long[Counter.values().length]);
      count(counts, invocation);
      count(totals, invocation);
      while (perSecond.size() > SECONDS_KEPT) {
        perSecond.remove(perSecond.keySet().iterator().next());
      }
      String from =
          invocation.caller() == null || invocation.source() == ObservedInvocation.Source.DELAYED
              ? invocation.source() == ObservedInvocation.Source.DELAYED
                  ? "delayed:" + invocation.address().type()
                  : "ingress"
              : invocation.caller().type().toString();
      if (invocation.outcome() == ObservedInvocation.Outcome.APPLIED) {
        edges.merge(from + " -> " + invocation.address().type(), 1L, Long::sum);
        for (EgressMessage egress : invocation.egress()) {
          edges.merge(
              invocation.address().type() + " -> egress:" + egress.targetEgress(), 1L, Long::sum);
        }
      }
      addresses.remove(invocation.address().toString());
      addresses.add(invocation.address().toString());
      if (addresses.size() > ADDRESSES_KEPT) {
        addresses.remove(addresses.iterator().next());
      }
    }
  }

  private static void count(long[] counts, ObservedInvocation invocation) {
    switch (invocation.outcome()) {
      case APPLIED -> counts[Counter.APPLIED.ordinal()]++;
      case FAILED -> counts[Counter.FAILED.ordinal()]++;
      case DEAD_LETTERED -> counts[Counter.DEAD_LETTERED.ordinal()]++;
    }
    if (invocation.outcome() == ObservedInvocation.Outcome.APPLIED) {
      counts[Counter.SENT.ordinal()] += invocation.sent().size() + invocation.delayed().size();
      counts[Counter.EGRESS.ordinal()] += invocation.egress().size();
    }
  }

  /** The kept invocations numbered above {@code after}, oldest first, at most {@code limit}. */
  synchronized List<ObjectNode> after(long after, int limit) {
    List<ObjectNode> newer = new ArrayList<>();
    for (ObjectNode node : latest) {
      if (node.get("seq").asLong() > after) {
        newer.add(node);
      }
    }
    return newer.size() > limit ? newer.subList(newer.size() - limit, newer.size()) : newer;
  }

  /** The number of the latest invocation, 0 if none. */
  synchronized long sequence() {
    return sequence;
  }

  /** The messages seen between function types (and to egresses) with their counts. */
  synchronized Map<String, Long> edges() {
    return new LinkedHashMap<>(edges);
  }

  /** The addresses invocations ran on, most recent last. */
  synchronized List<String> addresses() {
    return new ArrayList<>(addresses);
  }

  /**
   * {@code {"totals": {counter: n}, "seconds": [{"t": epochSecond, counter: n, ...}]}} for the last
   * {@code seconds} seconds up to {@code nowSecond}, a zero for each quiet second.
   */
  synchronized ObjectNode metrics(long nowSecond, int seconds) {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode total = root.putObject("totals");
    for (Counter c : Counter.values()) {
      total.put(name(c), totals[c.ordinal()]);
    }
    ArrayNode series = root.putArray("seconds");
    for (long t = nowSecond - seconds + 1; t <= nowSecond; t++) {
      long[] counts = perSecond.get(t);
      ObjectNode point = series.addObject();
      point.put("t", t);
      for (Counter c : Counter.values()) {
        point.put(name(c), counts == null ? 0 : counts[c.ordinal()]);
      }
    }
    return root;
  }

  private static String name(Counter counter) {
    return switch (counter) {
      case APPLIED -> "applied";
      case FAILED -> "failed";
      case DEAD_LETTERED -> "deadLettered";
      case SENT -> "sent";
      case EGRESS -> "egress";
    };
  }

  private ObjectNode json(ObservedInvocation invocation) {
    StatefulFunctions registry = functions.get();
    StatefulFunctionSpec spec =
        registry == null ? null : registry.get(invocation.address().type()).orElse(null);
    ObjectNode node = JSON.createObjectNode();
    node.put("time", invocation.time().toString());
    node.put("address", invocation.address().toString());
    node.put("source", invocation.source().name().toLowerCase(java.util.Locale.ROOT));
    node.put("caller", invocation.caller() == null ? null : invocation.caller().toString());
    node.set("message", message(invocation.message()));
    node.set("before", state(spec, invocation.stateBefore()));
    node.set("after", state(spec, invocation.stateAfter()));
    ArrayNode sent = node.putArray("sent");
    invocation
        .sent()
        .forEach(m -> sent.add(message(m).put("target", m.targetAddress().toString())));
    ArrayNode delayed = node.putArray("delayed");
    for (DelayedMessage d : invocation.delayed()) {
      ObjectNode item = message(d.message());
      item.put("target", d.message().targetAddress().toString());
      item.put("delayMillis", d.delay().toMillis());
      item.put("token", d.cancellationToken().orElse(null));
      delayed.add(item);
    }
    ArrayNode cancelled = node.putArray("cancelled");
    invocation.cancelled().forEach(cancelled::add);
    ArrayNode egress = node.putArray("egress");
    for (EgressMessage e : invocation.egress()) {
      ObjectNode item = JSON.createObjectNode();
      item.put("egress", e.targetEgress().toString());
      item.put("type", e.valueTypeName().toString());
      item.set("value", ConsoleValues.payload(e.valueTypeName().toString(), e.rawValue()));
      egress.add(item);
    }
    node.put("outcome", invocation.outcome().name().toLowerCase(java.util.Locale.ROOT));
    node.put("error", invocation.error());
    node.put("attempt", invocation.attempt());
    node.put("traceId", invocation.traceId());
    return node;
  }

  private static ObjectNode message(Message message) {
    ObjectNode node = JSON.createObjectNode();
    String type = message.valueTypeName().toString();
    node.put("type", type);
    node.set("value", ConsoleValues.payload(type, message.rawValue()));
    return node;
  }

  private static ObjectNode state(
      StatefulFunctionSpec spec, Map<String, ObservedInvocation.Value> values) {
    ObjectNode node = JSON.createObjectNode();
    values.forEach(
        (name, value) ->
            node.set(name, ConsoleValues.stored(spec, name, value.typeName(), value.bytes())));
    return node;
  }
}
