/**
 * The Apache Flink Stateful Functions 3.x request-reply protocol: {@link
 * dev.statekit.protocol.RequestReplyHandler} answers a {@code ToFunction} with a {@code
 * FromFunction}, wire compatible with StateFun runtimes and SDKs. The protobuf classes stay inside
 * this package's internals; functions never see them.
 */
package dev.statekit.protocol;
