package dev.statekit.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;

/**
 * CPU time of this JVM's application threads, those of the embedded servers left out (ElasticMQ
 * runs in the benchmark's JVM; Dynoxide and kinesalite are processes of their own): what the code
 * under test spent, on the calling thread and on its pools, as a Lambda function would be billed
 * for it beside its waits.
 */
public final class CpuClock {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private CpuClock() {}

  /** The CPU nanoseconds the application threads have used so far. */
  public static long nanos() {
    long total = 0;
    long[] ids = THREADS.getAllThreadIds();
    ThreadInfo[] infos = THREADS.getThreadInfo(ids);
    for (int i = 0; i < ids.length; i++) {
      ThreadInfo info = infos[i];
      if (info == null || server(info.getThreadName())) {
        continue;
      }
      long cpu = THREADS.getThreadCpuTime(ids[i]);
      if (cpu > 0) {
        total += cpu;
      }
    }
    return total;
  }

  private static boolean server(String thread) {
    return thread.contains("elasticmq") || thread.contains("pekko");
  }
}
