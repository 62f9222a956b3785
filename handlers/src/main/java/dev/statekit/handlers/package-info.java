/**
 * Reusable AWS Lambda handlers over core: {@link dev.statekit.handlers.StatefulFunctionsHandler}
 * serves a function registry to a StateFun runtime by direct invoke or through a Function URL.
 */
package dev.statekit.handlers;
