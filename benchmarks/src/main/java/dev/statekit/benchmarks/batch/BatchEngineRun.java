package dev.statekit.benchmarks.batch;

import dev.statekit.egress.EgressSink;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.BatchResult;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.lambda.InMemoryBatchStore;
import dev.statekit.stream.lambda.SourceBatch;
import dev.statekit.types.TypeName;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A job through {@link BatchPipeline} on the in-memory store, as Lambda would hand it a Kinesis
 * stream's batches: each shard's records (placed by card) cut into batches of {@code batchSize},
 * the shards taking turns, every batch processed on the calling thread and checkpointed; each
 * shard's last batch holds one closing record ({@link Transactions#closing}) whose watermark fires
 * every window still open, as the other engines fire them at the input's end (those batches fire
 * what the timer index gives them, the scheduled tick the rest).
 */
final class BatchEngineRun {
  private BatchEngineRun() {}

  /** The batches of {@code records} of the input, per shard, in the order they are processed. */
  static List<SourceBatch> batches(Transactions input, int from, int to, int shards, int size) {
    List<List<Integer>> perShard = new ArrayList<>();
    for (int s = 0; s < shards; s++) {
      perShard.add(new ArrayList<>());
    }
    for (int i = from; i < to; i++) {
      perShard.get(input.shard(i, shards)).add(i);
    }
    List<List<SourceBatch>> cut = new ArrayList<>();
    int most = 0;
    for (int s = 0; s < shards; s++) {
      List<Integer> records = perShard.get(s);
      List<SourceBatch> batches = new ArrayList<>();
      for (int start = 0; start < records.size(); start += size) {
        SourceBatch.Builder batch = SourceBatch.ordered("transactions/shardId-" + s);
        for (int r = start; r < Math.min(records.size(), start + size); r++) {
          int i = records.get(r);
          // Fixed-width sequence numbers, increasing per shard, as Kinesis gives them.
          batch.add(String.valueOf(100_000_000_000L + i), input.arrival[i], input.data[i]);
        }
        batches.add(batch.build());
      }
      // Without it the windows still open at the input's end would not fire: the other engines
      // fire them, so the batch engine must too, or it would be measured doing less.
      batches.add(
          SourceBatch.ordered("transactions/shardId-" + s)
              .add(
                  String.valueOf(100_000_000_000L + to + s),
                  input.arrival[to - 1],
                  input.closing(to, s))
              .build());
      cut.add(batches);
      most = Math.max(most, batches.size());
    }
    List<SourceBatch> order = new ArrayList<>();
    for (int b = 0; b < most; b++) {
      for (int s = 0; s < shards; s++) {
        if (b < cut.get(s).size()) {
          order.add(cut.get(s).get(b));
        }
      }
    }
    return order;
  }

  /** Processes the batches through a fresh pipeline and store; returns the outputs delivered. */
  static long run(Jobs job, List<SourceBatch> batches) {
    return run(job, batches, null);
  }

  /**
   * Processes the batches through a fresh pipeline and store, keeping each output's bytes in {@code
   * kept} unless it is null; returns the outputs delivered.
   */
  static long run(Jobs job, List<SourceBatch> batches, Outputs kept) {
    AtomicLong delivered = new AtomicLong();
    EgressSink sink =
        records -> {
          delivered.addAndGet(records.size());
          if (kept != null) {
            records.forEach(record -> kept.add(record.value()));
          }
        };
    EgressOutput<?> out =
        EgressOutput.to(
            sink, TypeName.of("bench", job == Jobs.FRAUD ? "alerts" : "counts"), Outputs.type(job));
    BatchPipeline pipeline =
        BatchPipeline.builder("bench-" + job.label, job.pipeline(BatchSource.records(), out))
            .store(new InMemoryBatchStore())
            .build();
    // As a deployment registers the stream's shards: none joins late behind the others' windows.
    pipeline.registerSplits(batches.stream().map(SourceBatch::split).distinct().toList());
    for (SourceBatch batch : batches) {
      BatchResult result = pipeline.process(batch);
      if (!result.succeeded()) {
        throw new IllegalStateException("A batch of " + batch.split() + " failed: " + result);
      }
    }
    // A batch fires a bounded part of the timer index; the scheduled tick fires the rest, as it
    // would on Lambda once the stream goes quiet.
    for (int quiet = 0, ticks = 0; quiet < 2; ticks++) {
      if (ticks > 100_000) {
        throw new IllegalStateException("Ticks kept firing windows: " + ticks);
      }
      quiet = pipeline.tick().windowsFired() == 0 ? quiet + 1 : 0;
    }
    return delivered.get();
  }
}
