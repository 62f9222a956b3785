/**
 * How StateKit reaches AWS: SDK clients configured from the environment, with endpoint overrides so
 * the same code runs against the emulators, LocalStack or AWS.
 */
package dev.statekit.aws;
