package dev.statekit.stream;

/**
 * What a finished run did.
 *
 * @param restoredFrom the checkpoint the run restored, 0 if it started fresh
 * @param lastCheckpoint the last checkpoint it completed (the one at the end of input)
 * @param checkpoints how many checkpoints it completed
 * @param recordsRead records read from the source
 * @param lateRecords records that came after all their windows had fired
 * @param droppedRecords records a process function failed on, dropped by policy
 * @param deadLetters records a process function failed on, sent to a dead-letter sink
 */
public record PipelineResult(
    long restoredFrom,
    long lastCheckpoint,
    int checkpoints,
    long recordsRead,
    long lateRecords,
    long droppedRecords,
    long deadLetters) {}
