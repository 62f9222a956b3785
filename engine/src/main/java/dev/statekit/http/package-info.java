/**
 * The HTTP endpoint for remote functions: {@link dev.statekit.http.FunctionHttpServer} on the JDK's
 * HTTP server, with the protocol's HTTP rules in {@link dev.statekit.http.HttpRouter} so other
 * transports (a Lambda Function URL) answer the same way.
 */
package dev.statekit.http;
