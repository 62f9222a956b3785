package dev.statekit.runtime.internal;

import dev.statekit.function.Address;
import dev.statekit.function.Expiration;
import dev.statekit.function.ValueSpec;
import dev.statekit.invocation.StateMutation;
import dev.statekit.runtime.internal.data.Outbox;
import dev.statekit.runtime.internal.data.RuntimeData;
import dev.statekit.runtime.store.AddressState;
import dev.statekit.runtime.store.OutboxKey;
import dev.statekit.runtime.store.SpilledMark;
import dev.statekit.runtime.store.StoredValue;
import dev.statekit.runtime.store.TimerChange;
import dev.statekit.runtime.store.TimerKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The state to commit after a run: values with their expiry, tokens, timer changes, the marks of
 * what was applied, and the outbox of everything the run sends.
 *
 * @param state the new state (version + 1)
 * @param timerChanges the timer changes that commit with it
 * @param outbox the outbox in {@code state}, or {@code null} if nothing is to be delivered
 * @param spills the marks that leave the item: written before the commit
 * @param commitId the random id the state names this commit by, among its latest
 */
record NextState(
    AddressState state,
    List<TimerChange> timerChanges,
    Outbox outbox,
    List<SpilledMark> spills,
    long commitId) {

  /**
   * The state after {@code plan}.
   *
   * @param spilled the spilled marks read for this batch
   * @param outboxKey where the batch registers its outboxes
   */
  static NextState of(
      RuntimeSettings settings,
      AddressState loaded,
      RuntimeData loadedData,
      Map<String, SpilledMark> spilled,
      RunResult plan,
      List<Delivery> deliveries,
      long now,
      OutboxKey outboxKey) {
    Address self = loaded.address();
    long version = loaded.version() + 1;
    long nowSeconds = now / 1000;
    Map<String, StoredValue> values = values(settings, loaded, plan, now);

    List<TimerChange> changes = new ArrayList<>();
    plan.check.scheduled().forEach(timer -> changes.add(new TimerChange.Schedule(timer)));
    plan.check.cancelled().forEach(key -> changes.add(new TimerChange.Cancel(key)));
    AppliedMarks marks = AppliedMarks.of(loadedData, spilled);
    for (Map.Entry<InboundInvocation, DeliveryOutcome> entry : plan.outcomes.entrySet()) {
      InboundInvocation inbound = entry.getKey();
      if (entry.getValue() != DeliveryOutcome.APPLIED
          && entry.getValue() != DeliveryOutcome.DEAD_LETTERED) {
        continue;
      }
      if (inbound.timer != null) {
        changes.add(new TimerChange.Consume(inbound.timer));
        if (inbound.timerToken != null && !self.equals(inbound.caller)) {
          changes.add(
              new TimerChange.ReleaseToken(inbound.caller, inbound.timerToken, inbound.timer));
        }
      }
      if (inbound.bundleSender != null) {
        marks.recordBundle(
            inbound.senderHash(),
            inbound.bundleVersion,
            inbound.bundlePart,
            inbound.bundleIndex,
            nowSeconds);
      }
    }

    // A timer whose message this commit applies or dead-letters is consumed: a cancellation of its
    // token run after that message does nothing (and a second action on the timer's item would
    // make DynamoDB refuse the whole transaction).
    Set<TimerKey> consumed = new HashSet<>();
    for (TimerChange change : changes) {
      if (change instanceof TimerChange.Consume consume) {
        consumed.add(consume.key());
      }
    }
    changes.removeIf(
        change -> change instanceof TimerChange.Cancel cancel && consumed.contains(cancel.key()));

    OutboxBuilder builder = new OutboxBuilder(settings, self);
    for (int i = 0; i < plan.appliedEffects.size(); i++) {
      builder.add(plan.appliedEffects.get(i), plan.appliedInbounds.get(i).traceId);
    }
    Outbox.Builder outbox = builder.build();
    Set<String> waiting = new HashSet<>();
    for (Delivery delivery : deliveries) {
      // A part dead-lettered now has its letter written now, whatever the other parts of its
      // message: its mark is written too, and when the message comes again for a part left for a
      // later commit, this part is a repeat and would never be dead-lettered.
      for (InboundInvocation inbound : delivery.invocations) {
        if (delivery.fromQueue && plan.outcomes.get(inbound) == DeliveryOutcome.DEAD_LETTERED) {
          outbox.addDeadLetters(
              DeadLetters.of(delivery, inbound, plan.failures.get(inbound), "no"));
        }
      }
      if (!done(plan, delivery)) {
        if (delivery.groupId != null) {
          waiting.add(delivery.groupId);
        }
        continue;
      }
      // A group's mark must not pass a message of it that failed and comes again: it would then
      // be taken for a repeat. (A repeat after it is done, but does not move the mark.)
      if (delivery.hasQueueSequence() && !waiting.contains(delivery.groupId)) {
        marks.recordQueue(delivery.groupId, delivery.sequence, nowSeconds);
      }
      if (delivery.idempotencyKey != null
          && plan.outcomes.get(delivery.invocations.get(0)) == DeliveryOutcome.APPLIED) {
        marks.recordId(delivery.idempotencyKey, nowSeconds);
        if (delivery.call) {
          // In the same commit as the state it answers for: a retry finds one or neither.
          marks.recordReply(
              delivery.idempotencyKey,
              CallReplies.of(plan.replies.get(delivery.invocations.get(0)), nowSeconds));
        }
      }
    }
    boolean anyEffects =
        outbox.getBundlesCount() + outbox.getEgressCount() + outbox.getDeadLettersCount() > 0;
    RuntimeData.Builder data = RuntimeData.newBuilder().setIncarnation(plan.incarnation);
    long commitId = settings.random.nextLong();
    data.addCommits(commitId);
    for (long earlier : loadedData.getCommitsList()) {
      if (data.getCommitsCount() == RuntimeSettings.RECENT_COMMITS) {
        break;
      }
      data.addCommits(earlier);
    }
    List<SpilledMark> spills = marks.writeTo(data, nowSeconds, settings.markLimits());
    if (anyEffects) {
      data.setOutbox(outbox.setIncarnation(plan.incarnation).setCommittedAtMillis(now));
    }
    Map<String, TimerKey> tokens = plan.check.tokens();
    AddressState state =
        new AddressState(
            self,
            version,
            values,
            tokens,
            data.build().toByteArray(),
            anyEffects ? version : 0,
            anyEffects ? outboxKey : null,
            expiry(settings, values, tokens, anyEffects, nowSeconds),
            expiry(settings, values, Map.of(), anyEffects, nowSeconds));
    return new NextState(state, changes, anyEffects ? outbox.build() : null, spills, commitId);
  }

  private static boolean done(RunResult plan, Delivery delivery) {
    for (InboundInvocation inbound : delivery.invocations) {
      if (plan.outcomes.get(inbound) == DeliveryOutcome.FAILED) {
        return false;
      }
    }
    return true;
  }

  private static Map<String, StoredValue> values(
      RuntimeSettings settings, AddressState loaded, RunResult plan, long now) {
    Map<String, StoredValue> values = new LinkedHashMap<>();
    loaded
        .values()
        .forEach(
            (name, value) -> {
              if (!value.isExpiredAt(now)) {
                values.put(name, value);
              }
            });
    Map<String, ValueSpec<?>> specs = new HashMap<>();
    settings
        .functions
        .get(loaded.address().type())
        .ifPresent(spec -> spec.valueSpecs().forEach(v -> specs.put(v.name(), v)));
    Set<String> written = new HashSet<>();
    for (StateMutation mutation : plan.mutations) {
      written.add(mutation.stateName());
      if (mutation.isDelete()) {
        values.remove(mutation.stateName());
      } else {
        ValueSpec<?> spec = specs.get(mutation.stateName());
        long expires = spec == null ? 0 : expiresAt(spec.expiration(), now);
        values.put(
            mutation.stateName(),
            new StoredValue(mutation.value().typeName(), mutation.value().value(), expires));
      }
    }
    if (!plan.appliedInbounds.isEmpty()) {
      // Every invocation is offered every value, so each one that ran "called" them all.
      for (ValueSpec<?> spec : specs.values()) {
        StoredValue value = values.get(spec.name());
        if (value != null
            && !written.contains(spec.name())
            && spec.expiration().mode() == Expiration.Mode.AFTER_CALL) {
          values.put(
              spec.name(),
              new StoredValue(value.typeName(), value.bytes(), expiresAt(spec.expiration(), now)));
        }
      }
    }
    return values;
  }

  /** When a value written or called now expires: 0 (never) for none, and past the end of time. */
  private static long expiresAt(Expiration expiration, long now) {
    if (expiration.mode() == Expiration.Mode.NONE) {
      return 0;
    }
    long millis = expiration.duration().toMillis();
    return millis > Long.MAX_VALUE - now ? 0 : now + millis;
  }

  /**
   * When DynamoDB may delete the whole item: once every value has expired, the marks of what was
   * applied have outlived their retention and effects left to deliver have had their tries; never
   * while a value never expires or a timer is pending.
   */
  private static long expiry(
      RuntimeSettings settings,
      Map<String, StoredValue> values,
      Map<String, TimerKey> tokens,
      boolean outboxPending,
      long nowSeconds) {
    long latest = 0;
    for (StoredValue value : values.values()) {
      if (value.expiresAtMillis() == 0) {
        return 0;
      }
      latest = Math.max(latest, value.expiresAtMillis() / 1000 + 1);
    }
    long kept = settings.dedupRetention.toSeconds();
    if (outboxPending) {
      kept = Math.max(kept, settings.outboxKeepSeconds());
    }
    return tokens.isEmpty() ? Math.max(latest, nowSeconds + kept) : 0;
  }
}
