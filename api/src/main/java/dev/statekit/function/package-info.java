/**
 * The stateful function API, in the Apache Flink Stateful Functions model: functions ({@link
 * dev.statekit.function.StatefulFunction}) bound to types ({@link dev.statekit.types.TypeName}) in
 * a registry ({@link dev.statekit.function.StatefulFunctions}), invoked on addresses with a {@link
 * dev.statekit.function.Context} through which they read and write declared values ({@link
 * dev.statekit.function.ValueSpec}) and send messages, delayed messages and egress records.
 *
 * <p>Nothing here depends on how functions are served: the same registry answers the StateFun
 * remote protocol ({@code dev.statekit.protocol}, {@code dev.statekit.http}) and runs in tests
 * ({@code dev.statekit.testing}).
 */
package dev.statekit.function;
