/**
 * The benchmarks jar: {@code java -jar benchmarks/target/statekit-benchmarks.jar SUITE} runs one
 * suite and ends with one {@code RESULT suite=... case=... key=value ...} line per measured case.
 */
package dev.statekit.benchmarks;
