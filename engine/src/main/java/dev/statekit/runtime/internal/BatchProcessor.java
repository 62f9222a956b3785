package dev.statekit.runtime.internal;

import dev.statekit.Deadline;
import dev.statekit.bus.BusMessage;
import dev.statekit.function.Address;
import dev.statekit.function.UnknownFunctionException;
import dev.statekit.runtime.store.LoadResult;
import dev.statekit.runtime.store.OutboxKey;
import dev.statekit.runtime.store.StoreException;
import dev.statekit.runtime.store.Timer;
import dev.statekit.runtime.store.TimerKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * Processes one batch of deliveries: read every address's state (one batch read), run each address
 * and prepare its commit (in parallel), register the outboxes the commits carry (one write, only if
 * any does; more for a batch whose addresses outgrow one registration item), commit each address
 * (in parallel, one conditional write each), deliver every outbox (requests batched across
 * addresses), and take the delivered ones off their registration (one write). A registration
 * outlives a crash anywhere after it, so a sweep delivers what a crashed batch committed.
 * Unreadable queue messages go to the dead-letter queue meanwhile. Each delivery is settled; a
 * {@link FaultHook} failure leaves as a crash would.
 */
public final class BatchProcessor {
  /** How many bytes of addresses one registration takes at most: half an item, for their counts. */
  private static final long REGISTRATION_BYTES = 150 * 1024;

  private final RuntimeSettings settings;
  private final OutboxDelivery delivery;

  /** A processor with these settings. */
  public BatchProcessor(RuntimeSettings settings) {
    this.settings = settings;
    this.delivery = new OutboxDelivery(settings);
  }

  /**
   * Processes {@code deliveries} and settles each; those left for a later commit of their address
   * ({@link Delivery#noRoom}) run in further rounds, each after the one before has committed and
   * delivered, so that nothing that fits a commit of its own fails for its batch-mates. Each round
   * applies or refuses at least the first of every such address's deliveries, so the rounds end.
   */
  void process(List<Delivery> deliveries) {
    process(deliveries, Deadline.none());
  }

  /**
   * {@link #process(List)} by {@code deadline}: in its reserve ({@link BatchDeadline}) no
   * invocation or round starts, and the addresses whose functions have not answered fail for now
   * while the others commit.
   */
  void process(List<Delivery> deliveries, Deadline deadline) {
    BatchDeadline limits = BatchDeadline.of(deadline);
    List<Delivery> round = deliveries;
    int rounds = 0;
    int most = 1;
    for (Delivery d : deliveries) {
      most += d.invocations.size();
    }
    while (!round.isEmpty()) {
      processRound(round, rounds > 0, limits);
      rounds++;
      List<Delivery> later = new ArrayList<>();
      for (Delivery d : round) {
        if (d.noRoom) {
          later.add(d);
        }
      }
      if (rounds >= most) {
        // Not reached while each round applies one of an address's invocations; should a function
        // change its effects between runs, its deliveries come again rather than loop here.
        FailedDeliveries.settle(
            settings, later, "Not run: " + rounds + " commits of this batch left no room for it");
        return;
      }
      if (!later.isEmpty() && !limits.mayStart()) {
        FailedDeliveries.settle(
            settings, later, "Not run: the Lambda invocation's time ran short before it");
        return;
      }
      for (Delivery d : later) {
        d.settle(null, null);
        d.rerun = true;
      }
      round = later;
    }
  }

  /**
   * One round; {@code again} for those after the first, whose addresses this process has just
   * committed: they are read never stale (an eventually consistent read so soon after the commit
   * would often miss it, and cost a conflicting commit and a read again).
   */
  private void processRound(List<Delivery> deliveries, boolean again, BatchDeadline limits) {
    Map<Address, List<Delivery>> byAddress = new LinkedHashMap<>();
    List<Delivery> unreadable = new ArrayList<>();
    Set<TimerKey> timers = new HashSet<>();
    for (Delivery d : deliveries) {
      if (d.invalid == null) {
        d.invalid = AddressLimit.refusal(d.target);
      }
      if (d.invalid == null && settings.functions.get(d.target.type()).isEmpty()) {
        d.invalid = new UnknownFunctionException(d.target.type(), settings.functions.types());
      }
      if (d.invalid != null) {
        unreadable.add(d);
        continue;
      }
      byAddress.computeIfAbsent(d.target, a -> new ArrayList<>()).add(d);
      d.invocations.forEach(
          i -> {
            if (i.timer != null) {
              timers.add(i.timer);
            }
          });
    }
    LoadResult loaded = load(byAddress, timers, unreadable, again);
    if (loaded == null) {
      return;
    }
    settings.hook.reached(FaultHook.Step.LOADED, null);
    Map<Address, OutboxKey> outboxKeys = outboxKeys(byAddress.keySet());
    List<AddressCommitter> work = new ArrayList<>();
    byAddress.forEach(
        (address, addressDeliveries) ->
            work.add(
                new AddressCommitter(
                    settings,
                    delivery,
                    address,
                    addressDeliveries,
                    outboxKeys.get(address),
                    loaded.states().get(address),
                    loaded.existingTimers(),
                    limits)));
    List<Callable<Void>> runs = new ArrayList<>();
    work.forEach(address -> runs.add(address::prepare));
    BitSet finished = settings.parallel.allUntil(runs, limits.waitUntil);
    if (finished.cardinality() < work.size()) {
      List<AddressCommitter> givenUp = new ArrayList<>();
      for (int i = 0; i < work.size(); i++) {
        if (!finished.get(i) && work.get(i).abandon()) {
          givenUp.add(work.get(i));
        }
      }
      work.removeAll(givenUp);
    }
    register(work);
    settings.hook.reached(FaultHook.Step.REGISTERED, null);
    List<Callable<PendingOutbox>> commits = new ArrayList<>();
    work.forEach(address -> commits.add(address::commit));
    List<PendingOutbox> outboxes = new ArrayList<>();
    for (PendingOutbox outbox : settings.parallel.all(commits)) {
      if (outbox != null) {
        outboxes.add(outbox);
      }
    }
    List<Timer> wakeUps = new ArrayList<>();
    work.forEach(c -> wakeUps.addAll(c.wakeUps()));
    Map<Address, Undelivered> failed;
    if (wakeUps.isEmpty()) {
      failed = delivery.deliver(outboxes, false);
    } else {
      // The wake-ups go out beside the outboxes: neither waits for the other.
      List<Callable<Map<Address, Undelivered>>> both = new ArrayList<>();
      both.add(() -> delivery.deliver(outboxes, false));
      both.add(
          () -> {
            new WakeUps(settings).put(wakeUps);
            return null;
          });
      failed = settings.parallel.all(both).get(0);
    }
    Map<Address, AddressCommitter> committers = new LinkedHashMap<>();
    work.forEach(c -> committers.put(c.address(), c));
    Map<Address, Set<String>> pending = new HashMap<>();
    for (PendingOutbox outbox : outboxes) {
      Undelivered undelivered = failed.get(outbox.address());
      if (undelivered != null
          && !OutboxOutcomes.deadLetterIfLast(settings, outbox, undelivered, 1)) {
        pending.put(outbox.address(), Undelivered.out(outbox, undelivered, Set.of()));
        undeliveredYet(committers.get(outbox.address()), undelivered);
        continue;
      }
      settings.delivered.record(
          outbox.address(), outbox.outbox().getIncarnation(), outbox.version());
    }
    Map<OutboxKey, Map<Address, Set<String>>> tried = new LinkedHashMap<>();
    pending.forEach(
        (address, out) ->
            tried.computeIfAbsent(outboxKeys.get(address), k -> new HashMap<>()).put(address, out));
    tried.forEach((key, out) -> OutboxOutcomes.tried(settings, key, out));
    settings.hook.reached(FaultHook.Step.DELIVERED, null);
    byKey(work).forEach((key, registered) -> settle(key, registered, pending.keySet()));
    settings.hook.reached(FaultHook.Step.SETTLED, null);
  }

  /**
   * Where the batch's addresses register their outboxes: a registration is one item, which holds at
   * most 400 KB (its addresses, and a count of failed tries for each), so a batch of many or long
   * addresses takes several.
   */
  private Map<Address, OutboxKey> outboxKeys(Collection<Address> addresses) {
    Map<Address, OutboxKey> keys = new HashMap<>();
    OutboxKey key = settings.newOutboxKey();
    long bytes = 0;
    for (Address address : addresses) {
      long size = address.toString().getBytes(StandardCharsets.UTF_8).length + 16L;
      if (bytes > 0 && bytes + size > REGISTRATION_BYTES) {
        key = settings.newOutboxKey();
        bytes = 0;
      }
      keys.put(address, key);
      bytes += size;
    }
    return keys;
  }

  /** The committers by their registration, in the batch's order. */
  private static Map<OutboxKey, List<AddressCommitter>> byKey(List<AddressCommitter> work) {
    Map<OutboxKey, List<AddressCommitter>> byKey = new LinkedHashMap<>();
    work.forEach(c -> byKey.computeIfAbsent(c.outboxKey(), k -> new ArrayList<>()).add(c));
    return byKey;
  }

  /**
   * Registers the outboxes the prepared commits carry, one write per registration (one, unless the
   * batch has many or long addresses), only if any does; none may commit without.
   */
  private void register(List<AddressCommitter> work) {
    byKey(work)
        .forEach(
            (key, committers) -> {
              List<AddressCommitter> sending = new ArrayList<>();
              List<Address> addresses = new ArrayList<>();
              committers.forEach(
                  c -> {
                    if (c.needsRegistration()) {
                      sending.add(c);
                      addresses.add(c.address());
                    }
                  });
              if (sending.isEmpty()) {
                return;
              }
              try {
                settings.store.registerOutboxes(key, addresses);
                sending.forEach(AddressCommitter::registered);
              } catch (StoreException e) {
                sending.forEach(c -> c.notRegistered(e));
              }
            });
  }

  /**
   * Takes off the registration what needs no sweep: every address whose commit was written and
   * whose outbox went out. One registered but not known committed stays for the sweep, which reads
   * whether its state names the registration (a commit whose answer was lost may).
   */
  private void settle(OutboxKey key, List<AddressCommitter> work, Set<Address> pending) {
    List<Address> done = new ArrayList<>();
    long registered = 0;
    for (AddressCommitter c : work) {
      if (!c.isRegistered()) {
        continue;
      }
      registered++;
      if (c.committed() && !pending.contains(c.address())) {
        done.add(c.address());
      }
    }
    if (registered == 0) {
      return;
    }
    try {
      if (done.size() == registered) {
        settings.store.removeOutboxes(key, -1);
      } else if (!done.isEmpty()) {
        settings.store.settleOutboxes(key, done);
      }
    } catch (StoreException e) {
      // The sweep takes them off later, after delivering them again (receivers drop repeats).
    }
  }

  /**
   * A committed outbox did not go out; it stays registered, and the sweep delivers it. Queue
   * messages come again before that (their group waits, so the address's effects keep their order)
   * and deliver it first, but for one on its last attempt: applied, it is done, and coming again
   * would only see the queue's redrive move it. A direct invocation stays applied.
   */
  private void undeliveredYet(AddressCommitter committer, Undelivered undelivered) {
    String error =
        "Applied, but its effects could not be delivered yet ("
            + undelivered.reason()
            + "); they are delivered before anything else of "
            + committer.address();
    for (Delivery d : committer.deliveries()) {
      if (d.fromQueue
          && d.outcome != DeliveryOutcome.FAILED
          && !d.lastAttempt(settings.maxAttempts)) {
        d.settle(DeliveryOutcome.FAILED, error);
      }
    }
  }

  /**
   * Reads the states while unreadable messages go to the dead-letter queue; null if reading failed.
   */
  private LoadResult load(
      Map<Address, List<Delivery>> byAddress,
      Set<TimerKey> timers,
      List<Delivery> unreadable,
      boolean latest) {
    List<Callable<LoadResult>> steps = new ArrayList<>();
    steps.add(
        () -> {
          if (byAddress.isEmpty()) {
            return null;
          }
          try {
            return latest
                ? settings.store.loadLatest(byAddress.keySet(), timers)
                : settings.store.load(byAddress.keySet(), timers);
          } catch (StoreException e) {
            List<Delivery> all = new ArrayList<>();
            byAddress.values().forEach(all::addAll);
            FailedDeliveries.settle(settings, all, "The state store failed: " + e.getMessage());
            return null;
          }
        });
    steps.add(
        () -> {
          deadLetterUnreadable(unreadable);
          return null;
        });
    return settings.parallel.all(steps).get(0);
  }

  private void deadLetterUnreadable(List<Delivery> unreadable) {
    List<BusMessage> letters = new ArrayList<>();
    List<Delivery> owners = new ArrayList<>();
    for (Delivery d : unreadable) {
      d.settle(DeliveryOutcome.DEAD_LETTERED, d.invalid.getMessage());
      if (d.fromQueue) {
        for (BusMessage letter : deadLetters(d)) {
          letters.add(letter);
          owners.add(d);
        }
      }
    }
    Set<Delivery> refused = DeadLetters.send(settings.deadLetters, letters, owners);
    refused.forEach(
        d ->
            d.settle(
                DeliveryOutcome.FAILED,
                "Not applicable here, and the dead-letter queue refused its dead letter"));
    new java.util.LinkedHashSet<>(owners)
        .forEach(
            d -> {
              if (!refused.contains(d)) {
                FailedDeliveries.dropFiredTimer(settings, d);
              }
            });
  }

  /**
   * The dead letters of a message that cannot be applied here: one that could not be read goes as
   * it came; one whose function is not registered (removed by a deploy, perhaps after an earlier
   * copy was applied) goes per invocation, with the key that makes sending it again safe.
   */
  private static List<BusMessage> deadLetters(Delivery d) {
    List<BusMessage> letters = new ArrayList<>();
    if (d.invalid instanceof UnknownFunctionException && !d.invocations.isEmpty()) {
      for (InboundInvocation inbound : d.invocations) {
        letters.add(DeadLetters.message(DeadLetters.of(d, inbound, d.invalid, "unknown")));
      }
    } else {
      letters.add(DeadLetters.message(DeadLetters.unreadable(d)));
    }
    return letters;
  }
}
