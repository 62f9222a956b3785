package dev.statekit.local.emulation;

/**
 * An event source mapping's thread: polls until stopped, pauses when a round found nothing, and
 * after a failure logs it and tries again a second later, as Lambda's pollers keep going through an
 * unreachable queue or stream.
 */
public abstract class PollLoop implements Runnable {
  private final String name;
  private final Activity activity;
  private final long idleMillis;
  private volatile boolean running = true;

  /**
   * @param name the mapping's name, for the log
   * @param idleMillis the pause after a round that found nothing
   */
  protected PollLoop(String name, Activity activity, long idleMillis) {
    this.name = name;
    this.activity = activity;
    this.idleMillis = idleMillis;
  }

  /** One round of polling and invoking; true if it found anything. */
  protected abstract boolean pollOnce();

  /** Stops after the current round. */
  public final void stop() {
    running = false;
  }

  /** False once {@link #stop} was called: a long round should end early. */
  protected final boolean running() {
    return running;
  }

  @Override
  public final void run() {
    while (running) {
      try {
        if (!pollOnce()) {
          pause(idleMillis);
        }
      } catch (RuntimeException e) {
        if (running) {
          activity.log(name, "polling failed, retrying in 1 s: " + e.getMessage());
          pause(1000);
        }
      }
    }
  }

  /** Sleeps, keeping an interrupt for the loop's owner to see. */
  static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
