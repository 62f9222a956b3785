/**
 * What the function API grants StateKit's engine: {@link dev.statekit.function.spi.Payloads} builds
 * and reads messages without copying their bytes, which the public API must do to stay immutable.
 * Not for applications; it may change in any release.
 */
package dev.statekit.function.spi;
