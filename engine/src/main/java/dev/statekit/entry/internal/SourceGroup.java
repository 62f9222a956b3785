package dev.statekit.entry.internal;

import java.util.List;

/**
 * The records of one event that came from one source, in their order.
 *
 * @param source the source's ARN
 * @param records its records
 * @param <R> the record type
 */
public record SourceGroup<R>(SourceArn source, List<R> records) {
  /** Copies the list. */
  public SourceGroup {
    records = List.copyOf(records);
  }
}
