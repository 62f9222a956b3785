package dev.statekit.benchmarks.batch;

import dev.statekit.stream.CountingSink;
import dev.statekit.stream.Record;
import dev.statekit.stream.RunOptions;
import dev.statekit.stream.Sinks;
import dev.statekit.stream.Sources;
import java.util.ArrayList;
import java.util.List;

/** A job on the in-process engine ({@code Pipeline.run}) with in-memory state. */
final class InProcessRun {
  private InProcessRun() {}

  static List<Record<byte[]>> records(Transactions input, int from, int to) {
    List<Record<byte[]>> records = new ArrayList<>(to - from);
    for (int i = from; i < to; i++) {
      records.add(Record.of(input.data[i], input.arrival[i]));
    }
    return records;
  }

  /** Runs the job over the records to their end; returns the outputs. */
  static long run(Jobs job, List<Record<byte[]>> records, int readBatch) throws Exception {
    CountingSink<Object> sink = Sinks.counting();
    job.pipeline(Sources.fromRecords(records, readBatch), sink)
        .run(RunOptions.named("bench-" + job.label).build());
    return sink.count();
  }

  /** Runs the job over the records to their end; returns what it output, as bytes. */
  static Outputs outputs(Jobs job, List<Record<byte[]>> records, int readBatch) throws Exception {
    Outputs outputs = new Outputs();
    job.pipeline(Sources.fromRecords(records, readBatch), outputs.sink(Outputs.type(job)))
        .run(RunOptions.named("bench-" + job.label).build());
    return outputs;
  }
}
