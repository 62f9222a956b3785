package dev.statekit.runtime.store;

import dev.statekit.function.Address;
import java.util.Objects;

/**
 * A change to the timers that commits together with an address's state: all of a commit's changes
 * and its state are written atomically, or none is.
 */
public sealed interface TimerChange {
  /** Stores a new timer; fails the commit if a timer with its key exists. */
  record Schedule(Timer timer) implements TimerChange {
    /** Checks the timer. */
    public Schedule {
      Objects.requireNonNull(timer, "timer");
    }
  }

  /** Removes a timer whose token was cancelled; nothing happens if it is gone. */
  record Cancel(TimerKey key) implements TimerChange {
    /** Checks the key. */
    public Cancel {
      Objects.requireNonNull(key, "key");
    }
  }

  /**
   * Removes a timer whose message is being applied; fails the commit if the timer is gone (its
   * message was applied before, or it was cancelled).
   */
  record Consume(TimerKey key) implements TimerChange {
    /** Checks the key. */
    public Consume {
      Objects.requireNonNull(key, "key");
    }
  }

  /**
   * Frees the cancellation token of another address (the timer's owner) whose timer is being
   * consumed: removes the token and bumps the owner's version, so a concurrent commit of the owner
   * fails and reloads. Fails the commit if the owner's token no longer names that timer.
   */
  record ReleaseToken(Address owner, String token, TimerKey timer) implements TimerChange {
    /** Checks the parts. */
    public ReleaseToken {
      Objects.requireNonNull(owner, "owner");
      Objects.requireNonNull(token, "token");
      Objects.requireNonNull(timer, "timer");
    }
  }
}
