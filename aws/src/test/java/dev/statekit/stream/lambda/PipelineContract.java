package dev.statekit.stream.lambda;

import dev.statekit.egress.EgressSink;
import java.util.Map;

/**
 * A contract of batch pipelines, run in memory ({@code *Test}) and against Dynoxide ({@code *IT}).
 */
abstract class PipelineContract {
  /** What the pipelines run on. */
  abstract PipelineParts parts();

  /** The store under test. */
  BatchStore store() {
    return parts().store();
  }

  /** The results table, written by id. */
  EgressSink results() {
    return parts().results();
  }

  /** What the results table holds: each record's text by id, of every test of the class. */
  Map<String, String> stored() {
    return parts().stored();
  }
}
