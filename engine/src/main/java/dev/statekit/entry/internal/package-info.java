/** The entry point's event parsing and answers; not API. */
package dev.statekit.entry.internal;
