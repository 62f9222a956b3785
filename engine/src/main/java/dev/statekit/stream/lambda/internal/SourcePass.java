package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.Record;
import dev.statekit.stream.SourcePosition;
import dev.statekit.stream.internal.Output;
import dev.statekit.stream.lambda.BatchStore;
import dev.statekit.stream.lambda.SourceBatch;
import dev.statekit.stream.state.StateBackend;
import dev.statekit.stream.state.internal.StateKeys;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs a batch's records through the operators before the keyed one (stateless: no reads are
 * needed), in order: each record's keyed records, outputs and failure. A record repeated within the
 * batch (or, on an ordered split, not after the one before it) is dropped here. A failure ends an
 * ordered batch (Lambda resumes at the failed record); an unordered batch carries on. Once the
 * batch's deadline says so, the records left are not run ({@link SourceOutcome#untaken}): on an
 * ordered batch the first of them ends it, on an unordered one each goes back.
 */
final class SourcePass {
  private final PlanShape shape;
  private final String pipeline;

  private final BatchDeadline deadline;

  SourcePass(PlanShape shape, String pipeline, BatchDeadline deadline) {
    this.shape = shape;
    this.pipeline = pipeline;
    this.deadline = deadline;
  }

  /** Records dropped as repeats within the batch, by the last {@link #run}. */
  int repeats;

  /** The outcomes of the batch's records, repeats within the batch left out. */
  List<SourceOutcome> run(SourceBatch batch, Capture capture) throws Exception {
    BatchChains.Chain stateless =
        BatchChains.open(
            shape.plan(),
            0,
            pipeline,
            StateBackend.inMemory(),
            capture,
            shape.hasKeyedStage() ? new Keyer() : null);
    BatchChains.Chain keyedStateless = shape.statelessKeyedStage() ? openKeyedStage(capture) : null;
    List<SourceOutcome> outcomes = new ArrayList<>();
    Set<String> seen = new HashSet<>(Sized.capacity(batch.records().size()));
    String last = null;
    boolean stopped = false;
    boolean ranOne = false;
    for (int i = 0; i < batch.records().size(); i++) {
      Record<byte[]> record = batch.records().get(i);
      String offset = record.position().offset();
      if (!seen.add(offset)
          || (batch.ordered()
              && last != null
              && SourcePosition.compareOffsets(offset, last) <= 0)) {
        repeats++;
        continue;
      }
      last = offset;
      SourceOutcome outcome = new SourceOutcome(i, offset);
      // Records run until one has run without failing, so that every try of the batch moves it
      // on: a first message that fails slowly must not send its healthy neighbours back with it.
      stopped |= ranOne && deadline.sourcesStop();
      if (stopped) {
        outcome.untaken = true;
        outcome.failure = BatchDeadline.why(offset, batch.split(), batch.ordered());
        outcomes.add(outcome);
        if (batch.ordered()) {
          break;
        }
        continue;
      }
      current = outcome;
      capture.target(
          new IdTarget(
              pipeline,
              shape.routes(),
              batch.split(),
              () -> batch.split() + "/" + offset + "/s",
              outcome.outputs::add));
      try {
        stateless.head().emit(record);
        if (keyedStateless != null) {
          for (KeyedInput input : outcome.keyed) {
            keyedStateless.head().emitKeyed(input.key(), input.record());
          }
          outcome.keyed.clear();
        }
      } catch (Exception | StackOverflowError | LinkageError | AssertionError e) {
        outcome.failure = "Record " + offset + " of " + batch.split() + " failed: " + e;
        outcome.keyed.clear();
        outcome.outputs.clear();
      }
      // Its own records' times: a message before it that failed (and goes back) moves nothing.
      outcome.maxTimestamp = stateless.takeRecentMaxTimestamp();
      outcomes.add(outcome);
      ranOne |= !outcome.failed();
      if (outcome.failed() && batch.ordered()) {
        break;
      }
    }
    return outcomes;
  }

  private BatchChains.Chain openKeyedStage(Capture capture) throws Exception {
    return BatchChains.open(shape.plan(), 1, pipeline, StateBackend.inMemory(), capture, null);
  }

  private SourceOutcome current;

  /** The end of the stateless stage: keys each record for the keyed stage. */
  private final class Keyer implements Output {
    @Override
    public void emit(Record<?> record) {
      Object key = shape.keyOf(record);
      String encoded = StateKeys.encode(key, shape.keySerde());
      String problem = BatchStore.keyProblem(encoded);
      if (problem != null) {
        throw new IllegalArgumentException(problem);
      }
      current.keyed.add(new KeyedInput(key, encoded, record, current.index, current.keyed.size()));
    }

    @Override
    public void watermark(long watermark) {}

    @Override
    public void barrier(long checkpointId) {}

    @Override
    public void end() {}
  }
}
