/** The caching state backend behind both state adapters. Not an API. */
package dev.statekit.stream.state.internal;
