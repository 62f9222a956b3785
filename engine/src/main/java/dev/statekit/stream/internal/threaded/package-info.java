/**
 * The in-process threaded engine behind {@code Pipeline.run} and {@code Pipeline.start}: source and
 * worker tasks on their own threads, the keyed exchange between them, and checkpoints by barriers
 * aligned across the tasks. Not an API.
 */
package dev.statekit.stream.internal.threaded;
