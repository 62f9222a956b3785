package dev.statekit.stream.lambda.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Semaphore;

/**
 * A deterministic scheduler for invocations that run at the same time (two copies of one batch, a
 * message handed over again while its first attempt still runs): each runs on its own thread, but
 * only one at a time, handing the turn over at every call into a simulated service, to the one the
 * seed picks. The interleaving is therefore a function of the seed alone.
 */
final class Turns {
  private final Random random;
  private final ThreadLocal<Task> current = new ThreadLocal<>();
  private final Semaphore back = new Semaphore(0);

  Turns(Random random) {
    this.random = random;
  }

  private final class Task {
    final Semaphore go = new Semaphore(0);
    final Runnable body;
    volatile boolean done;
    volatile RuntimeException failure;

    Task(Runnable body) {
      this.body = body;
    }

    void run() {
      current.set(this);
      go.acquireUninterruptibly();
      try {
        body.run();
      } catch (RuntimeException e) {
        failure = e;
      } catch (Error e) {
        failure = new IllegalStateException(e);
      } finally {
        done = true;
        back.release();
      }
    }
  }

  /**
   * Runs the bodies interleaved and returns once all ended.
   *
   * @return each body's failure, or null, in order
   */
  List<RuntimeException> together(List<Runnable> bodies) {
    List<Task> tasks = new ArrayList<>();
    for (Runnable body : bodies) {
      Task task = new Task(body);
      tasks.add(task);
      Thread thread = new Thread(task::run, "simulated-invocation");
      thread.setDaemon(true);
      thread.start();
    }
    List<Task> alive = new ArrayList<>(tasks);
    while (!alive.isEmpty()) {
      Task next = alive.get(random.nextInt(alive.size()));
      next.go.release();
      back.acquireUninterruptibly();
      if (next.done) {
        alive.remove(next);
      }
    }
    List<RuntimeException> failures = new ArrayList<>();
    tasks.forEach(task -> failures.add(task.failure));
    return failures;
  }

  /** Called on entering a simulated service: another invocation may run first. */
  void yieldTurn() {
    Task task = current.get();
    if (task != null) {
      back.release();
      task.go.acquireUninterruptibly();
    }
  }
}
