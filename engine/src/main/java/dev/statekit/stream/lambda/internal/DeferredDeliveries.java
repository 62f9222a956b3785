package dev.statekit.stream.lambda.internal;

import dev.statekit.egress.EgressException;
import dev.statekit.stream.lambda.DeferredMessage;
import java.util.ArrayList;
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

  /**
   * How long past the retention a deferred message's receipt is kept: an outage may outlast the
   * retention, and SQS keeps a message 14 days at most. The drain gives it the retention's expiry
   * again once its outputs went out.
   */
  static final long KEPT_WHILE_DEFERRED_MS = java.time.Duration.ofDays(14).toMillis();

  /**
   * Records messages as deferred now, in the order of {@code receipts} (their receipts by id), and
   * keeps their receipts {@link #KEPT_WHILE_DEFERRED_MS} past the retention.
   *
   * @param behind whether they wait behind deferred messages of their order groups: then they go
   *     after the split's last entry, whichever invocation's clock wrote it
   * @param why the sink's failure, or null if they only wait behind others
   */
  void defer(Map<String, byte[]> receipts, boolean behind, EgressException why) {
    DeferredMessage last = behind ? engine.store().lastDeferred(engine.name, split) : null;
    List<DeferredMessage> entries = new ArrayList<>(receipts.size());
    for (String id : receipts.keySet()) {
      entries.add(DeferredMessage.after(last, now, entries.size(), id));
    }
    // The receipts first: a drain that finds an entry then writes the receipt's expiry after this
    // write, never before it (the entries first, a tick in between left it with the long expiry).
    long kept = now + engine.settings.retentionMs() + KEPT_WHILE_DEFERRED_MS;
    engine.store().writeReceipts(engine.name, split, receipts, kept / 1000 + 1);
    engine.store().putDeferred(engine.name, split, entries);
    LOG.warn(
        "Pipeline "
            + engine.name
            + ": the outputs of "
            + entries.size()
            + " applied messages of "
            + split
            + " wait in their receipts for the tick"
            + (why == null
                ? ", behind outputs of earlier messages that wait"
                : ": " + why.getMessage()));
  }

  /**
   * Delivers the split's deferred messages page by page, in order, from {@code page} (the first,
   * read already), while {@code more} says go on; then gives each page's receipts the retention's
   * expiry again and deletes its entries.
   *
   * @return how many messages' outputs went out, and whether none is left
   * @throws EgressException if a sink did not take a page's outputs, which stay deferred
   * @throws MissingOutputException if a receipt names an output this deployment lacks: the page
   *     stays deferred, for a deployment that has it
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
          // Kept 14 days past the retention while deferred: an outage longer than that gets here.
          LOG.error(
              "Pipeline "
                  + engine.name
                  + ": the receipt of deferred message "
                  + message.message()
                  + " of "
                  + split
                  + " is gone (deferred past the retention and 14 days more); its outputs"
                  + " cannot be delivered",
              null);
          continue;
        }
        List<SourceOutcome.Routed> routed;
        try {
          routed =
              StoredOutput.routedAll(Receipts.decode(receipt), engine.shape.routes(), engine.name);
        } catch (MissingOutputException e) {
          throw new MissingOutputException(
              "Pipeline "
                  + engine.name
                  + ": the deferred outputs of message "
                  + message.message()
                  + " of "
                  + split
                  + " (its receipt), and the split's later ones behind them, wait: "
                  + e.getMessage());
        }
        routed.forEach(r -> deliveries.add(r.route(), r.record()));
      }
      engine.together(deliveries.calls());
      // The expiry before the entries go: a crash in between delivers the page again, later.
      engine
          .store()
          .writeReceipts(
              engine.name, split, receipts, (now + engine.settings.retentionMs()) / 1000 + 1);
      List<String> orders = new ArrayList<>(page.size());
      page.forEach(m -> orders.add(m.order()));
      engine.store().deleteDeferred(engine.name, split, orders);
      delivered += page.size();
      if (page.size() < PAGE) {
        break;
      }
      page = firstPage();
      if (!page.isEmpty() && !more.getAsBoolean()) {
        return new Drained(delivered, false);
      }
    }
    return new Drained(delivered, true);
  }

  /** What {@link #drain} did. */
  record Drained(int delivered, boolean empty) {}
}
