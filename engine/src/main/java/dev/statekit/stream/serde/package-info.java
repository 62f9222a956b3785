/**
 * How records and state values become bytes: {@link dev.statekit.stream.serde.Serde}, the built-in
 * ones in {@link dev.statekit.stream.serde.Serdes}, and {@link
 * dev.statekit.stream.serde.SerdeException}. Below both the pipeline API and its state, so neither
 * depends on the other to name a serde.
 */
package dev.statekit.stream.serde;
