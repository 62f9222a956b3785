package dev.statekit.runtime.internal;

import dev.statekit.bus.QueueIds;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.egress.FunctionAddressSink;
import dev.statekit.function.Address;
import dev.statekit.function.DelayedMessage;
import dev.statekit.function.EgressMessage;
import dev.statekit.function.Message;
import dev.statekit.invocation.DelayedAction;
import dev.statekit.invocation.InvocationEffects;
import dev.statekit.invocation.TypedValue;
import dev.statekit.runtime.store.Timer;
import dev.statekit.runtime.store.TimerKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks each invocation's effects against what the runtime can do — delays within range, a token
 * not still pending, an egress with a route, messages that fit a queue message (and whose dead
 * letters would: {@link DeadLetterSize}), few enough timer changes and timer bytes for one commit —
 * and keeps the address's tokens and timers as the batch changes them.
 */
final class EffectCheck {
  private final RuntimeSettings settings;
  private final Address self;
  private final long incarnation;
  private final long version;
  private final long now;
  private final Map<String, TimerKey> tokens;
  private final Map<TimerKey, Timer> scheduled = new LinkedHashMap<>();
  private final Map<TimerKey, Integer> timerBytes = new LinkedHashMap<>();
  private final List<TimerKey> cancelled = new ArrayList<>();
  private int consumed;
  private int timers;

  /** The trace id of the invocation whose effects are checked next; its timers carry it. */
  String traceId;

  EffectCheck(
      RuntimeSettings settings,
      Address self,
      long incarnation,
      long version,
      long now,
      Map<String, TimerKey> tokens) {
    this.settings = settings;
    this.self = self;
    this.incarnation = incarnation;
    this.version = version;
    this.now = now;
    this.tokens = new LinkedHashMap<>(tokens);
  }

  /** A check that failed: the error, and whether it is only "too much for one commit". */
  record Verdict(RuntimeException error, boolean tooMuchForOneCommit) {}

  /**
   * Before a delayed message is run: its timer is consumed with the commit, and if this address
   * owns it, its token is free again (a reminder may set itself again with the same token).
   */
  void firing(InboundInvocation inbound) {
    consumed += timerChangesOf(inbound);
    if (ownToken(inbound) && inbound.timer.equals(tokens.get(inbound.timerToken))) {
      tokens.remove(inbound.timerToken);
    }
  }

  /**
   * Whether firing {@code inbound} without running it (its dead letter) would take the commit past
   * the timer changes one commit holds: the checks of the invocations before it did not count it.
   */
  boolean firingOverflows(InboundInvocation inbound) {
    return inbound.timer != null
        && timerChanges() + timerChangesOf(inbound) > RuntimeSettings.MAX_TIMER_CHANGES;
  }

  /** The delayed message failed and will come again: its timer and token stay as they were. */
  void notFired(InboundInvocation inbound) {
    consumed -= timerChangesOf(inbound);
    if (ownToken(inbound)) {
      tokens.putIfAbsent(inbound.timerToken, inbound.timer);
    }
  }

  private boolean ownToken(InboundInvocation inbound) {
    return inbound.timerToken != null && self.equals(inbound.caller);
  }

  /** The timer's removal, and the release of its owner's token if another address owns it. */
  private int timerChangesOf(InboundInvocation inbound) {
    return inbound.timerToken != null && !self.equals(inbound.caller) ? 2 : 1;
  }

  /** Checks one successful invocation's effects; {@code null} when they are all fine. */
  Verdict check(InvocationEffects effects) {
    for (Message message : effects.messages()) {
      RuntimeException tooLarge =
          fits(message.targetAddress(), message.valueTypeName().asString(), message.rawValue());
      if (tooLarge != null) {
        return new Verdict(tooLarge, false);
      }
    }
    for (EgressMessage egress : effects.egress()) {
      try {
        EgressRoutes.Routed routed =
            settings.egress.resolve(
                "check",
                egress.targetEgress(),
                self,
                egress.valueTypeName().asString(),
                egress.rawValue());
        if (routed.sink() instanceof FunctionAddressSink) {
          Address target = ((FunctionAddressSink) routed.sink()).target();
          RuntimeException tooLarge =
              fits(target, routed.record().valueTypeName(), routed.record().value());
          if (tooLarge != null) {
            return new Verdict(tooLarge, false);
          }
        }
      } catch (IllegalArgumentException e) {
        return new Verdict(e, false);
      }
    }
    for (DelayedAction action : effects.delayed()) {
      RuntimeException error =
          action.isCancellation() ? cancel(action.cancelledToken()) : schedule(action.message());
      if (error != null) {
        return new Verdict(error, false);
      }
    }
    if (timerChanges() > RuntimeSettings.MAX_TIMER_CHANGES) {
      return new Verdict(
          new IllegalStateException(
              "One commit of "
                  + self
                  + " can hold at most "
                  + RuntimeSettings.MAX_TIMER_CHANGES
                  + " delayed messages, cancellations and fired timers; send fewer per message"),
          true);
    }
    long bytes = 0;
    for (TimerKey key : scheduled.keySet()) {
      bytes += timerBytes.get(key);
    }
    if (bytes > RuntimeSettings.MAX_TIMER_BYTES) {
      return new Verdict(
          new IllegalStateException(
              "One commit of "
                  + self
                  + " would write "
                  + bytes
                  + " bytes of delayed messages, more than the "
                  + RuntimeSettings.MAX_TIMER_BYTES
                  + " a DynamoDB transaction leaves them; delay fewer or smaller messages per"
                  + " message (large data belongs elsewhere, e.g. S3)"),
          true);
    }
    return null;
  }

  Map<String, TimerKey> tokens() {
    return tokens;
  }

  List<Timer> scheduled() {
    return new ArrayList<>(scheduled.values());
  }

  List<TimerKey> cancelled() {
    return cancelled;
  }

  /**
   * Whether an invocation earlier in this run cancelled {@code timer}: its message, arriving after
   * the cancellation in the address's order, must not be applied.
   */
  boolean wasCancelled(TimerKey timer) {
    return cancelled.contains(timer);
  }

  private RuntimeException cancel(String token) {
    TimerKey key = tokens.remove(token);
    if (key != null && scheduled.remove(key) == null) {
      cancelled.add(key);
    }
    return null;
  }

  /** Refuses a message to an address the runtime cannot keep state for ({@link AddressLimit}). */
  private RuntimeException unkept(Address target) {
    String problem = AddressLimit.problem(target);
    return problem == null
        ? null
        : new IllegalArgumentException("A message from " + self + ": " + problem);
  }

  private RuntimeException schedule(DelayedMessage delayed) {
    Message message = delayed.message();
    String token = delayed.cancellationToken().orElse(null);
    RuntimeException unkept = unkept(message.targetAddress());
    if (unkept != null) {
      return unkept;
    }
    if (delayed.delay().compareTo(settings.maxDelay) > 0) {
      return new IllegalArgumentException(
          "A message can be delayed by at most " + settings.maxDelay + ", not " + delayed.delay());
    }
    long due = now + delayed.delay().toMillis();
    if (token == null && delayed.delay().isZero()) {
      // Due now and never cancelled: it goes out with the commit like any message.
      return fits(message.targetAddress(), message.valueTypeName().asString(), message.rawValue());
    }
    String tokenProblem = token == null ? null : AddressLimit.tokenProblem(token);
    if (tokenProblem != null) {
      return new IllegalArgumentException("A delayed message from " + self + ": " + tokenProblem);
    }
    if (token != null && tokens.containsKey(token)) {
      return new IllegalStateException(
          "Cancellation token '"
              + token
              + "' of "
              + self
              + " is still pending (timer "
              + tokens.get(token).asString()
              + "); cancel it first or use another token");
    }
    String id =
        QueueIds.sha256(self + "|" + incarnation + "|" + version + "|" + timers++).substring(0, 22);
    TimerKey key =
        new TimerKey(
            Math.floorMod(QueueIds.fingerprint(id), RuntimeSettings.TIMER_SHARDS), due, id);
    String body =
        QueueBodyCodec.timer(
            key,
            self,
            token,
            message.targetAddress(),
            new TypedValue(message.valueTypeName().asString(), message.rawValue()),
            traceId);
    // In bytes, as the queue counts: ids and a token in UTF-8 may take 3 bytes a character.
    int bodyBytes = body.getBytes(StandardCharsets.UTF_8).length;
    if (bodyBytes > settings.maxBodyBytes()) {
      return tooLarge(message.targetAddress(), bodyBytes);
    }
    RuntimeException deadLetterTooLarge =
        deadLetterFits(
            message.targetAddress(), message.valueTypeName().asString(), message.rawValue());
    if (deadLetterTooLarge != null) {
      return deadLetterTooLarge;
    }
    // A timer due within SQS's longest delay is written as woken: its wake-up goes out right after
    // the commit, so the sweep puts none.
    long wakeUp = WakeUps.putAtCommit(settings, due, now) ? now : 0;
    scheduled.put(key, new Timer(key, QueueIds.groupId(message.targetAddress()), body, 0, wakeUp));
    // The item holds the body and its keys (a few hundred bytes at most).
    timerBytes.put(key, bodyBytes + 512);
    if (token != null) {
      tokens.put(token, key);
    }
    return null;
  }

  private int timerChanges() {
    return scheduled.size() + cancelled.size() + consumed;
  }

  private RuntimeException fits(Address target, String typeName, byte[] value) {
    RuntimeException unkept = unkept(target);
    if (unkept != null) {
      return unkept;
    }
    long estimate =
        OutboxBuilder.bundleOverhead(self, target)
            + OutboxBuilder.payloadSize(typeName, value.length);
    return estimate > settings.maxBodyBytes()
        ? tooLarge(target, estimate)
        : deadLetterFits(target, typeName, value);
  }

  /** Refuses a message whose dead letter would not fit a queue message ({@link DeadLetterSize}). */
  private RuntimeException deadLetterFits(Address target, String typeName, byte[] value) {
    long deadLetter = DeadLetterSize.of(target, typeName, value, settings.maxBodyBytes());
    if (deadLetter > settings.maxBodyBytes()) {
      return new IllegalArgumentException(
          "A message from "
              + self
              + " to "
              + target
              + " would take "
              + deadLetter
              + " bytes as a dead letter (its string value written as JSON text, where quotes,"
              + " backslashes and control characters take 2 to 6 bytes), more than a queue message"
              + " holds ("
              + settings.maxBodyBytes()
              + "); send large data elsewhere (e.g. S3) and a reference in the message, or send"
              + " it as bytes");
    }
    return null;
  }

  private RuntimeException tooLarge(Address target, long bytes) {
    return new IllegalArgumentException(
        "A message from "
            + self
            + " to "
            + target
            + " would take about "
            + bytes
            + " bytes, more than a queue message holds ("
            + settings.maxBodyBytes()
            + "); send large data elsewhere (e.g. S3) and a reference in the message");
  }
}
