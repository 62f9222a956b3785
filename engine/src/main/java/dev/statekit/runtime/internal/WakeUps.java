package dev.statekit.runtime.internal;

import dev.statekit.bus.BusException;
import dev.statekit.bus.BusMessage;
import dev.statekit.bus.MessageBus;
import dev.statekit.bus.QueueMessage;
import dev.statekit.runtime.store.StoreException;
import dev.statekit.runtime.store.Timer;
import dev.statekit.runtime.store.TimerChange;
import dev.statekit.runtime.store.TimerKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Wake-ups of delayed messages: a message on a standard queue, hidden by SQS's per-message delay
 * until its timer is due, that names the timer. The timer item stays the source of truth and the
 * fence: a wake-up that arrives reads it and, if it is due and not sent, sends its message to the
 * target's queue group (deduplication id = timer id, as the sweep does) and marks it sent; the
 * target's commit then consumes the timer as for a swept one. So a wake-up for a cancelled or
 * applied timer finds nothing, a duplicate finds it sent, an early one is put back for the time
 * left, and a lost one leaves the timer to the sweep.
 */
public final class WakeUps {
  /** What a wake-up's body starts with, before the timer's key. */
  public static final String PREFIX = "statekit-wake-up:";

  /** SQS hides a message for at most this long: later timers get their wake-up from the sweep. */
  static final long LONGEST_MILLIS = BusMessage.MAX_DELAY_SECONDS * 1000L;

  private static final dev.statekit.telemetry.Log LOG =
      dev.statekit.telemetry.Log.named("dev.statekit.runtime");

  private final RuntimeSettings settings;

  /** Wake-ups with these settings. */
  public WakeUps(RuntimeSettings settings) {
    this.settings = settings;
  }

  /** Whether the runtime has a wake-up queue. */
  boolean enabled() {
    return settings.wakeUps != null;
  }

  /** Whether a queue message body is a wake-up. */
  public static boolean isWakeUp(String body) {
    return body.startsWith(PREFIX);
  }

  /**
   * Whether a timer written at {@code now} gets its wake-up put right after its commit: one due
   * within the longest delay SQS keeps.
   */
  static boolean putAtCommit(RuntimeSettings settings, long dueAtMillis, long now) {
    return settings.wakeUps != null && dueAtMillis - now <= LONGEST_MILLIS;
  }

  /** The timers among {@code changes} written with a wake-up to put. */
  static List<Timer> committedWithWakeUp(List<TimerChange> changes) {
    List<Timer> timers = new ArrayList<>();
    for (TimerChange change : changes) {
      if (change instanceof TimerChange.Schedule schedule
          && schedule.timer().wakeUpAtMillis() > 0) {
        timers.add(schedule.timer());
      }
    }
    return timers;
  }

  /**
   * Puts a wake-up for each timer, hidden until it is due (at most 15 minutes).
   *
   * @return the timers whose wake-up the queue took; a failure is logged (the sweep sends the
   *     others once due)
   */
  List<Timer> put(List<Timer> timers) {
    if (!enabled() || timers.isEmpty()) {
      return List.of();
    }
    long now = settings.clock.millis();
    List<Callable<List<Timer>>> sends = new ArrayList<>();
    for (int from = 0; from < timers.size(); from += MessageBus.MAX_BATCH) {
      List<Timer> chunk =
          timers.subList(from, Math.min(timers.size(), from + MessageBus.MAX_BATCH));
      sends.add(() -> putChunk(chunk, now));
    }
    List<Timer> put = new ArrayList<>();
    settings.parallel.all(sends).forEach(put::addAll);
    return put;
  }

  private List<Timer> putChunk(List<Timer> chunk, long now) {
    List<BusMessage> messages = new ArrayList<>();
    for (Timer timer : chunk) {
      messages.add(wakeUp(timer.key(), timer.groupId(), now));
    }
    List<Timer> put = new ArrayList<>(chunk);
    try {
      settings.wakeUps.send(messages);
    } catch (BusException e) {
      List<Timer> notPut = new ArrayList<>();
      e.failedIndices().forEach(i -> notPut.add(chunk.get(i)));
      put.removeAll(notPut);
      LOG.warn(notPut.size() + " wake-up(s) not put; the sweep sends their messages once due", e);
    } catch (RuntimeException e) {
      LOG.warn("Wake-ups not put; the sweep sends their messages once due", e);
      return List.of();
    }
    return put;
  }

  /** The wake-up of a timer, hidden for the whole seconds left until it is due. */
  static BusMessage wakeUp(TimerKey key, String groupId, long now) {
    long left = Math.max(0, key.dueAtMillis() - now);
    int seconds = (int) Math.min(BusMessage.MAX_DELAY_SECONDS, (left + 999) / 1000);
    return new BusMessage(groupId, "w-" + key.id(), PREFIX + key.asString()).delayedBy(seconds);
  }

  /**
   * Handles arrived wake-ups.
   *
   * @return the ids of the messages to receive again (the store or a queue did not answer)
   */
  public List<String> arrived(List<QueueMessage> messages) {
    Map<TimerKey, List<String>> byTimer = new LinkedHashMap<>();
    for (QueueMessage message : messages) {
      TimerKey key = parse(message.body());
      if (key != null) {
        byTimer.computeIfAbsent(key, k -> new ArrayList<>()).add(message.messageId());
      }
    }
    List<Callable<Optional<Timer>>> reads = new ArrayList<>();
    List<TimerKey> keys = new ArrayList<>(byTimer.keySet());
    Set<String> again = ConcurrentHashMap.newKeySet();
    for (TimerKey key : keys) {
      reads.add(
          () -> {
            try {
              return settings.store.timer(key);
            } catch (StoreException e) {
              again.addAll(byTimer.get(key));
              return null;
            }
          });
    }
    List<Optional<Timer>> found = settings.parallel.all(reads);
    long now = settings.clock.millis();
    List<Timer> due = new ArrayList<>();
    List<Timer> early = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      Optional<Timer> timer = found.get(i);
      // Gone (applied or cancelled) or sent already (by the sweep or another wake-up; the sweep
      // sends again what is not applied in time): nothing to do.
      if (timer == null || timer.isEmpty() || timer.get().sentAtMillis() > 0) {
        continue;
      }
      (timer.get().key().dueAtMillis() <= now ? due : early).add(timer.get());
    }
    settings.hook.reached(FaultHook.Step.WOKEN, null);
    List<Callable<Void>> steps = new ArrayList<>();
    if (!early.isEmpty()) {
      steps.add(
          () -> {
            List<Timer> put = put(early);
            for (Timer timer : early) {
              if (!put.contains(timer)) {
                again.addAll(byTimer.get(timer.key()));
              }
            }
            return null;
          });
    }
    for (int from = 0; from < due.size(); from += MessageBus.MAX_BATCH) {
      List<Timer> chunk = due.subList(from, Math.min(due.size(), from + MessageBus.MAX_BATCH));
      steps.add(
          () -> {
            for (Timer timer : TimerSweeper.sendDue(settings, chunk, now)) {
              again.addAll(byTimer.get(timer.key()));
            }
            return null;
          });
    }
    if (!steps.isEmpty()) {
      settings.parallel.all(steps);
    }
    return new ArrayList<>(again);
  }

  /** The timer a wake-up names, or null (logged) for a body that names none: it is dropped. */
  private static TimerKey parse(String body) {
    try {
      return TimerKey.parse(body.substring(PREFIX.length()));
    } catch (IllegalArgumentException e) {
      LOG.warn("Dropped a wake-up that names no timer (" + e.getMessage() + "): " + body);
      return null;
    }
  }
}
