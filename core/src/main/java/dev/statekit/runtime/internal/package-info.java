/**
 * The runtime's implementation. Public only so StateKit's own packages can use it; not for users,
 * and it may change in any release.
 */
package dev.statekit.runtime.internal;
