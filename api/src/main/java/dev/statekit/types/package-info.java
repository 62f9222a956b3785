/**
 * Value types: how state values and message payloads become bytes with a type name. {@link
 * dev.statekit.types.Types} has StateFun's primitives, protobuf messages, JSON (Jackson) and
 * user-defined types; {@link dev.statekit.types.Type} is the contract.
 */
package dev.statekit.types;
