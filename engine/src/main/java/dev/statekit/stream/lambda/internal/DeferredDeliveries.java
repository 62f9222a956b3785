package dev.statekit.stream.lambda.internal;

import dev.statekit.egress.EgressException;
import dev.statekit.stream.lambda.DeferredMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The deferred messages of one unordered split ({@link DeferredMessage}): a batch whose sinks did
 * not take the outputs of messages it applied records them here and answers them done, and the tick
 * (or the next batch of an order group) delivers them from their receipts, in order.
 */
final class DeferredDeliveries {
  private static final dev.statekit.telemetry.Log LOG =
      dev.statekit.telemetry.Log.of(DeferredDeliveries.class);

  /** Deferred messages read, delivered and deleted at a time. */
  static final int PAGE = 100;

  private final BatchEngine engine;
  private final String split;
  private final long now;

  DeferredDeliveries(BatchEngine engine, String split, long now) {
    this.engine = engine;
    this.split = split;
    this.now = now;
  }

  /** The first page of the split's deferred messages. */
  List<DeferredMessage> firstPage() {
    return engine.store().deferred(engine.name, split, PAGE);
  }

  /** Records messages {@code ids}, in the order their outputs must go out, as deferred now. */
  void defer(List<String> ids, EgressException why) {
    List<DeferredMessage> entries = new ArrayList<>(ids.size());
    for (int i = 0; i < ids.size(); i++) {
      entries.add(DeferredMessage.of(now, i, ids.get(i)));
    }
    engine.store().putDeferred(engine.name, split, entries);
    LOG.warn(
        "Pipeline "
            + engine.name
            + ": the outputs of "
            + ids.size()
            + " applied messages of "
            + split
            + " wait in their receipts for the tick"
            + (why == null
                ? ", behind outputs of earlier messages that wait"
                : ": " + why.getMessage()));
  }

  /**
   * Delivers the split's deferred messages page by page, in order, from {@code page} (the first,
   * read already), deleting each page once its outputs went out, while {@code more} says go on.
   *
   * @return how many messages' outputs went out, and whether none is left
   * @throws EgressException if a sink did not take a page's outputs: they stay deferred, their
   *     receipts written again, with a new expiry, once half the retention has passed
   */
  Drained drain(List<DeferredMessage> page, BooleanSupplier more) {
    int delivered = 0;
    while (!page.isEmpty()) {
      List<String> ids = new ArrayList<>(page.size());
      page.forEach(m -> ids.add(m.message()));
      Map<String, byte[]> receipts = engine.store().readReceipts(engine.name, split, ids);
      Deliveries deliveries = engine.deliveries();
      for (DeferredMessage message : page) {
        byte[] receipt = receipts.get(message.message());
        if (receipt == null) {
          // Written before the entry, and kept alive by the refresh below: only a store that
          // lost it, or a retention shorter than the time between ticks, gets here.
          LOG.error(
              "Pipeline "
                  + engine.name
                  + ": the receipt of deferred message "
                  + message.message()
                  + " of "
                  + split
                  + " is gone; its outputs cannot be delivered",
              null);
          continue;
        }
        StoredOutput.routedAll(Receipts.decode(receipt), engine.shape.routes(), engine.name)
            .forEach(routed -> deliveries.add(routed.route(), routed.record()));
      }
      try {
        engine.together(deliveries.calls());
      } catch (EgressException e) {
        refresh(page, receipts);
        throw e;
      }
      List<String> orders = new ArrayList<>(page.size());
      page.forEach(m -> orders.add(m.order()));
      engine.store().deleteDeferred(engine.name, split, orders);
      delivered += page.size();
      if (page.size() < PAGE) {
        break;
      }
      if (!more.getAsBoolean()) {
        return new Drained(delivered, false);
      }
      page = firstPage();
    }
    return new Drained(delivered, true);
  }

  /** What {@link #drain} did. */
  record Drained(int delivered, boolean empty) {}

  /** Writes again, with a new expiry, the receipts of entries deferred half a retention ago. */
  private void refresh(List<DeferredMessage> page, Map<String, byte[]> receipts) {
    long retention = engine.settings.retentionMs();
    Map<String, byte[]> old = new HashMap<>();
    List<DeferredMessage> renewed = new ArrayList<>();
    for (DeferredMessage message : page) {
      byte[] receipt = receipts.get(message.message());
      if (receipt != null && now - message.since() >= retention / 2) {
        old.put(message.message(), receipt);
        renewed.add(new DeferredMessage(message.order(), message.message(), now));
      }
    }
    if (!old.isEmpty()) {
      engine.store().writeReceipts(engine.name, split, old, (now + retention) / 1000 + 1);
      engine.store().putDeferred(engine.name, split, renewed);
    }
  }
}
