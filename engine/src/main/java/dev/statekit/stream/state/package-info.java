/**
 * Keyed state and checkpoints: the {@link dev.statekit.stream.state.StateBackend} port with value,
 * list and map state per key and namespace, the {@link dev.statekit.stream.state.StateTable} it
 * writes through, and the {@link dev.statekit.stream.state.CheckpointStore}, with in-memory
 * adapters.
 */
package dev.statekit.stream.state;
