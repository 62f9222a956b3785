/**
 * Where the runtime keeps function state and durable timers: the {@link
 * dev.statekit.runtime.store.FunctionStore} port with an in-memory and a DynamoDB adapter.
 */
package dev.statekit.runtime.store;
