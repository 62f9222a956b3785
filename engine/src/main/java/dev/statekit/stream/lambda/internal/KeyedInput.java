package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.Record;

/**
 * A record on its way into the keyed stage.
 *
 * @param key its key
 * @param encoded the key as state items name it
 * @param record the record (its position is its source record's)
 * @param source the index of its source record in the batch
 * @param sub its index among the keyed records its source record produced
 */
record KeyedInput(Object key, String encoded, Record<?> record, int source, int sub) {
  String offset() {
    return record.position().offset();
  }
}
